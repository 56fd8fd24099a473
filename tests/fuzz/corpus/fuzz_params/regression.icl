regression.icl
