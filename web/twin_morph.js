// The text twin's update in place (web/twin.js): brings an element's children to new HTML by
// changing only what differs (a text, an attribute, a value), so that an element that stays (a
// focused button, the control a screen reader is on) is never destroyed, re-created or re-focused
// while a run refreshes the page 4 times a second (docs/design.md, "Keyboard and screen reader").
// window.attnlabMorph(element, html, { commit }): commit also rewrites a text field the user has
// typed into (its value was just sent); otherwise a focused field being typed into keeps its text.
(function () {
  'use strict';
  // An element's identity across renders: its id, else what it does (data-act and its value).
  function key(n) {
    if (n.nodeType !== 1) return '';
    if (n.id) return '#' + n.id;
    const d = n.dataset;
    return d && d.act ? `${d.act}|${d.kind || ''}|${d.index || ''}|${d.story || ''}` : '';
  }
  function sameKind(a, b) {
    if (a.nodeType !== b.nodeType) return false;
    if (a.nodeType !== 1) return true;
    if (a.nodeName !== b.nodeName || (a.getAttribute('type') || '') !== (b.getAttribute('type') || '')) return false;
    const ka = key(a), kb = key(b);
    // A button keeps its identity when only what it does changes (Run becomes Pause, same id).
    return ka === kb || (a.id !== '' && a.id === b.id);
  }
  // The user is typing into this field: its text stays until it is committed or abandoned.
  const typing = (el) => el === document.activeElement && el.value !== el.defaultValue;

  function morphAttributes(to, from, opt) {
    for (const a of [...to.attributes]) if (!from.hasAttribute(a.name)) to.removeAttribute(a.name);
    for (const a of [...from.attributes]) if (to.getAttribute(a.name) !== a.value) to.setAttribute(a.name, a.value);
    // Attributes only set the first state of these; the live state is a property.
    if (to.nodeName === 'INPUT') {
      if (to.type === 'checkbox' || to.type === 'radio') {
        const on = from.hasAttribute('checked');
        if (to.checked !== on) to.checked = on;
      } else {
        const v = from.getAttribute('value') ?? '';
        if (to.value !== v && (opt.commit || !typing(to))) to.value = v;
      }
    } else if (to.nodeName === 'OPTION') {
      const on = from.hasAttribute('selected');
      if (to.selected !== on) to.selected = on;
    }
  }
  function morphNode(to, from, opt) {
    if (to.nodeType !== 1) {
      if (to.nodeValue !== from.nodeValue) to.nodeValue = from.nodeValue;
      return;
    }
    morphAttributes(to, from, opt);
    morphChildren(to, from, opt);
  }
  function morphChildren(to, from, opt) {
    const wanted = [...from.childNodes];
    for (let i = 0; i < wanted.length; i++) {
      const nu = wanted[i];
      let old = to.childNodes[i];
      if (old && !sameKind(old, nu)) {
        // The element wanted here may stand further on (something before it went away): move it up.
        const k = key(nu);
        const later = k ? [...to.childNodes].slice(i + 1).find((n) => key(n) === k && sameKind(n, nu)) : null;
        if (later) { to.insertBefore(later, old); old = later; }
      }
      if (old && sameKind(old, nu)) morphNode(old, nu, opt);
      else if (old && key(old) && wanted.slice(i + 1).some((n) => key(n) === key(old))) to.insertBefore(nu, old);  // new before a kept one
      else if (old) to.replaceChild(nu, old);
      else to.appendChild(nu);
    }
    while (to.childNodes.length > wanted.length) to.removeChild(to.lastChild);
  }
  window.attnlabMorph = (el, html, opt = {}) => {
    const t = document.createElement('template');
    t.innerHTML = html;
    morphChildren(el, t.content, opt);
  };
})();
