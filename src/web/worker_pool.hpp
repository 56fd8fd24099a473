// The page's pool of Web Workers (web/workers/unit_pool.js) as the scheduler's WorkerPool.
#pragma once
#include <memory>

#include "lab/unit_scheduler.hpp"

namespace attnlab::web {

// The default number of workers: the browser's hardware concurrency minus one (the main thread
// draws), at least one.
int default_worker_count();
std::unique_ptr<WorkerPool> make_browser_worker_pool();

}  // namespace attnlab::web
