#include "web/worker_pool.hpp"

#include <emscripten.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

// The pool lives in JavaScript (Module.unitPool), made on first use; workers load beside the page.
EM_JS(int, js_pool_default_size, (), { return Math.max(1, (navigator.hardwareConcurrency || 2) - 1); });
EM_JS(void, js_pool_resize, (int n), {
  if (typeof AttnLabUnitPool !== "function") { Module.unitPoolMissing = true; return; }
  if (!Module.unitPool) Module.unitPool = new AttnLabUnitPool(AttnLabUnitPool.browserSpawner(""), n);
  else Module.unitPool.resize(n);
});
EM_JS(int, js_pool_state, (), {
  // 0 starting, 1 ready, 2 failed
  if (Module.unitPoolMissing || typeof Worker !== "function") return 2;
  if (!Module.unitPool) return 0;
  const s = Module.unitPool.state;
  return s === "ready" ? 1 : s === "failed" ? 2 : 0;
});
EM_JS(int, js_pool_size, (), { return Module.unitPool ? Module.unitPool.size : 0; });
EM_JS(int, js_pool_busy, (), { return Module.unitPool ? Module.unitPool.busyCount : 0; });
EM_JS(int, js_pool_post, (const char* run_key, const char* spec, double unit, int generation), {
  const spec_obj = JSON.parse(UTF8ToString(spec));
  return Module.unitPool.post(UTF8ToString(run_key), spec_obj, unit, generation) ? 1 : 0;
});
EM_JS(char*, js_pool_take_events, (), {
  const text = JSON.stringify(Module.unitPool ? Module.unitPool.takeEvents() : []);
  const len = lengthBytesUTF8(text) + 1;
  const p = _malloc(len);
  stringToUTF8(text, p, len);
  return p;
});
EM_JS(void, js_pool_cancel, (int generation), { if (Module.unitPool) Module.unitPool.cancel(generation); });
EM_JS(double, js_pool_memory_max, (), {
  return Module.unitPool ? Math.max(0, ...Module.unitPool.memoryBytes) : 0;
});

namespace attnlab::web {

namespace {

class BrowserWorkerPool final : public WorkerPool {
 public:
  void resize(int workers) override { js_pool_resize(workers); }
  int size() const override { return js_pool_size(); }
  bool failed() const override { return js_pool_state() == 2; }
  bool ready() const override { return js_pool_state() == 1; }
  int busy() const override { return js_pool_busy(); }
  bool post(const std::string& run_key, const std::string& spec_json, std::int64_t unit, int generation) override {
    return js_pool_post(run_key.c_str(), spec_json.c_str(), static_cast<double>(unit), generation) != 0;
  }
  std::vector<WorkerEvent> take_events() override {
    char* text = js_pool_take_events();
    const nlohmann::json events = nlohmann::json::parse(text, nullptr, false);
    std::free(text);
    std::vector<WorkerEvent> out;
    if (!events.is_array()) return out;
    for (const auto& e : events) {
      WorkerEvent ev;
      const std::string type = e.value("type", "");
      const auto* kind = kWorkerEventKinds.find(type);
      ev.kind = kind ? kind->value : WorkerEvent::Kind::Error;  // a message the pool does not know: the unit failed
      ev.generation = e.value("generation", 0);
      ev.run_key = e.value("runKey", "");
      ev.unit = e.value("unit", std::int64_t(0));
      ev.partial = type == "done" ? e.value("partial", "") : e.value("preview", "");
      ev.fraction = e.value("fraction", 0.0);
      ev.seconds = e.value("seconds", 0.0);
      ev.message = e.value("message", "the worker failed");
      out.push_back(std::move(ev));
    }
    return out;
  }
  void cancel(int generation) override { js_pool_cancel(generation); }
  std::string memory_text() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%d worker%s, at most %.0f MB each", size(), size() == 1 ? "" : "s",
                  js_pool_memory_max() / 1048576.0);
    return buf;
  }
};

}  // namespace

int default_worker_count() { return js_pool_default_size(); }
std::unique_ptr<WorkerPool> make_browser_worker_pool() { return std::make_unique<BrowserWorkerPool>(); }

}  // namespace attnlab::web
