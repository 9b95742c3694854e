// sweep.cpp: the driver of a sweep: the workers' shares of the Gray-code walk,
// progress, and the results. The plan and the engine are in sweep_plan.cpp, the
// bank counting in sweep_kernel.cpp.
#include "swz/sim/sweep.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "sweep_engine.h"

namespace swz {

using sweep_detail::Engine;
using sweep_detail::Plan;
using sweep_detail::State;
using sweep_detail::fill_masks;
using sweep_detail::load_state;
using sweep_detail::make_engine;
using sweep_detail::make_plan;

std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks) {
  const Plan pl = make_plan(problem);
  std::vector<std::uint32_t> m = masks;
  m.resize(static_cast<std::size_t>(pl.row_bits), 0);
  problem.layout_for_masks(m);  // validates
  const Engine e = make_engine(pl);
  State st;
  load_state(e, m, st);
  return e.step(e, st, -1);
}

SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress, int threads) {
  const auto start = std::chrono::steady_clock::now();
  const Plan pl = make_plan(problem);
  const Engine eng = make_engine(pl);
  SweepResult r;
  r.configs = std::int64_t{1} << pl.g.configs_log2();
  r.fast_path = pl.fast;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::int64_t>(threads, std::max<std::int64_t>(1, r.configs / 1024)));
  r.threads = threads;
  const int ideal = pl.phases;
  struct Partial {
    std::map<int, std::int64_t> histogram;
    std::int64_t conflict_free = 0, agrees = 0;
    std::int64_t first_bad = -1;  // smallest configuration index where the lemma differs
  };
  std::vector<Partial> parts(static_cast<std::size_t>(threads));
  std::atomic<std::int64_t> done{0};
  // Each worker takes a run of Gray-code positions: position i is configuration i ^ (i >> 1), and
  // position i differs from position i - 1 in toggle bit countr_zero(i).
  auto work = [&](int t) {
    Partial& part = parts[static_cast<std::size_t>(t)];
    const std::int64_t lo = r.configs * t / threads, hi = r.configs * (t + 1) / threads;
    if (lo >= hi) return;
    std::vector<std::int64_t> local_hist(1024, 0);
    std::int64_t batch = 0;
    State st;
    {
      std::vector<std::uint32_t> masks;
      fill_masks(pl.g, static_cast<std::uint64_t>(lo ^ (lo >> 1)), masks);
      load_state(eng, masks, st);
    }
    for (std::int64_t i = lo; i < hi; ++i) {
      const auto [sim, pred] = eng.step(eng, st, i > lo ? std::countr_zero(static_cast<std::uint64_t>(i)) : -1);
      if (sim < 1024) ++local_hist[static_cast<std::size_t>(sim)];
      else ++part.histogram[sim];
      if (sim == ideal) ++part.conflict_free;
      if (sim == pred) {
        ++part.agrees;
      } else {
        const std::int64_t c = i ^ (i >> 1);
        if (part.first_bad < 0 || c < part.first_bad) part.first_bad = c;
      }
      if (++batch == 4096) { done += batch; batch = 0; }
    }
    done += batch;
    for (std::size_t w = 0; w < local_hist.size(); ++w)
      if (local_hist[w]) part.histogram[static_cast<int>(w)] += local_hist[w];
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  if (progress) {
    // Progress every 50 ms, woken early when the work ends: the elapsed time is the work's own.
    std::mutex m;
    std::condition_variable finished;
    bool main_done = false;
    std::thread main_part([&] {
      work(0);
      {
        const std::lock_guard<std::mutex> lock(m);
        main_done = true;
      }
      finished.notify_one();
    });
    {
      std::unique_lock<std::mutex> lock(m);
      while (!main_done) {
        lock.unlock();
        progress(done.load(), r.configs);
        lock.lock();
        finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return main_done; });
      }
    }
    main_part.join();
    progress(r.configs, r.configs);
  } else {
    work(0);
  }
  for (auto& th : pool) th.join();
  std::int64_t first_bad = -1;
  for (const auto& part : parts) {
    for (const auto& [w, n] : part.histogram) r.histogram[w] += n;
    r.conflict_free += part.conflict_free;
    r.lemma_agrees += part.agrees;
    if (part.first_bad >= 0 && (first_bad < 0 || part.first_bad < first_bad)) first_bad = part.first_bad;
  }
  if (first_bad >= 0) r.first_disagreement = masks_of_config(pl.g, static_cast<std::uint64_t>(first_bad));
  r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace swz
