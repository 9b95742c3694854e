// sweep.cpp: the driver of a sweep: the workers' shares of the Gray-code walk
// (both sides of each configuration), progress, the results, and the projection.
// The plan and the engine are in sweep_plan.cpp, the bank counting in sweep_kernel.cpp.
#include "swz/sim/sweep.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "sweep_engine.h"
#include "swz/error.h"

namespace swz {

using sweep_detail::Engine;
using sweep_detail::Plan;
using sweep_detail::State;
using sweep_detail::fill_masks;
using sweep_detail::load_state;
using sweep_detail::make_engine;
using sweep_detail::make_plan;

namespace {

AccessSides one_side(AccessSides side) {
  if (side == AccessSides::Both) fail("a sweep evaluates one side at a time (Read or Write)");
  return side;
}

int worker_count(int threads, std::int64_t configs) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<std::int64_t>(threads, std::max<std::int64_t>(1, configs / 1024)));
}

SweepPath path_of(const Plan& pl) { return {pl.fast, pl.slow_reason}; }

// Both sides of one configuration, walked together: each side has its own engine and state.
struct Sides {
  Plan read_plan, write_plan;
  Engine read, write;
  explicit Sides(const Problem& p)
      : read_plan(make_plan(p, AccessSides::Read)), write_plan(make_plan(p, AccessSides::Write)) {
    read = make_engine(read_plan);
    write = make_engine(write_plan);
  }
  Sides(const Sides&) = delete;
  Sides& operator=(const Sides&) = delete;
};

}  // namespace

std::pair<int, int> sweep_evaluate(const Problem& problem, const std::vector<std::uint32_t>& masks, AccessSides side) {
  const Plan pl = make_plan(problem, one_side(side));
  std::vector<std::uint32_t> m = masks;
  m.resize(static_cast<std::size_t>(pl.row_bits), 0);
  problem.layout_for_masks(m);  // validates
  const Engine e = make_engine(pl);
  State st;
  load_state(e, m, st);
  return e.step(e, st, -1);
}

SweepProjection sweep_projection(const Problem& problem, int threads) {
  const Sides s(problem);
  SweepProjection out;
  out.configs = std::int64_t{1} << s.read_plan.g.configs_log2();
  out.read = path_of(s.read_plan);
  out.write = path_of(s.write_plan);
  out.threads = worker_count(threads, out.configs);
  if (out.read.fast && out.write.fast) return out;
  // Time the first configurations of the walk, as a worker runs them, for up to a quarter second.
  const auto start = std::chrono::steady_clock::now();
  State read_state, write_state;
  std::vector<std::uint32_t> masks;
  fill_masks(s.read_plan.g, 0, masks);
  load_state(s.read, masks, read_state);
  load_state(s.write, masks, write_state);
  std::int64_t timed = 0;
  double elapsed = 0;
  for (std::int64_t i = 0; i < out.configs; ++i) {
    const int t = i > 0 ? std::countr_zero(static_cast<std::uint64_t>(i)) : -1;
    s.read.step(s.read, read_state, t);
    s.write.step(s.write, write_state, t);
    ++timed;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > 0.25 || timed >= 4096) break;
  }
  out.seconds = elapsed / static_cast<double>(timed) * static_cast<double>(out.configs) / out.threads;
  return out;
}

SweepResult sweep(const Problem& problem, const std::function<void(std::int64_t, std::int64_t)>& progress, int threads) {
  const auto start = std::chrono::steady_clock::now();
  const Sides sides(problem);
  const Plan& pl = sides.read_plan;
  SweepResult r;
  r.configs = std::int64_t{1} << pl.g.configs_log2();
  r.read.path = path_of(sides.read_plan);
  r.write.path = path_of(sides.write_plan);
  r.read.ideal_wavefronts = sides.read_plan.phases;
  r.write.ideal_wavefronts = sides.write_plan.phases;
  r.fast_path = r.read.path.fast && r.write.path.fast;
  threads = worker_count(threads, r.configs);
  r.threads = threads;
  struct PartialSide {
    std::map<int, std::int64_t> histogram;
    std::vector<std::int64_t> local_hist = std::vector<std::int64_t>(1024, 0);
    std::int64_t conflict_free = 0, agrees = 0;
    std::int64_t first_bad = -1;  // smallest configuration index where the lemma differs
    // One configuration's (simulated, predicted); true when conflict-free.
    bool add(std::pair<int, int> result, int ideal, std::int64_t i) {
      const auto [sim, pred] = result;
      if (sim < 1024) ++local_hist[static_cast<std::size_t>(sim)];
      else ++histogram[sim];
      if (sim == pred) {
        ++agrees;
      } else {
        const std::int64_t c = i ^ (i >> 1);
        if (first_bad < 0 || c < first_bad) first_bad = c;
      }
      if (sim != ideal) return false;
      ++conflict_free;
      return true;
    }
    void finish() {
      for (std::size_t w = 0; w < local_hist.size(); ++w)
        if (local_hist[w]) histogram[static_cast<int>(w)] += local_hist[w];
    }
  };
  struct Partial {
    PartialSide read, write;
    std::int64_t both = 0;
  };
  std::vector<Partial> parts(static_cast<std::size_t>(threads));
  std::atomic<std::int64_t> done{0};
  // Each worker takes a run of Gray-code positions: position i is configuration i ^ (i >> 1), and
  // position i differs from position i - 1 in toggle bit countr_zero(i).
  auto work = [&](int t) {
    Partial& part = parts[static_cast<std::size_t>(t)];
    const std::int64_t lo = r.configs * t / threads, hi = r.configs * (t + 1) / threads;
    if (lo >= hi) return;
    std::int64_t batch = 0;
    State read_state, write_state;
    {
      std::vector<std::uint32_t> masks;
      fill_masks(pl.g, static_cast<std::uint64_t>(lo ^ (lo >> 1)), masks);
      load_state(sides.read, masks, read_state);
      load_state(sides.write, masks, write_state);
    }
    const Engine& re = sides.read;
    const Engine& we = sides.write;
    const int read_ideal = r.read.ideal_wavefronts, write_ideal = r.write.ideal_wavefronts;
    for (std::int64_t i = lo; i < hi; ++i) {
      const int bit = i > lo ? std::countr_zero(static_cast<std::uint64_t>(i)) : -1;
      const bool read_ok = part.read.add(re.step(re, read_state, bit), read_ideal, i);
      const bool write_ok = part.write.add(we.step(we, write_state, bit), write_ideal, i);
      part.both += read_ok && write_ok;
      if (++batch == 4096) { done += batch; batch = 0; }
    }
    done += batch;
    part.read.finish();
    part.write.finish();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work, t);
    } catch (const std::system_error&) {
      work(t);  // no threads to start (the browser's build): this part runs here, before the rest
    }
  }
  if (progress) {
    // Progress every 50 ms, woken early when the work ends: the elapsed time is the work's own.
    std::mutex m;
    std::condition_variable finished;
    bool main_done = false;
    const auto main_work = [&] {
      work(0);
      {
        const std::lock_guard<std::mutex> lock(m);
        main_done = true;
      }
      finished.notify_one();
    };
    std::thread main_part;
    try {
      main_part = std::thread(main_work);
    } catch (const std::system_error&) {
      main_work();  // no threads (the browser's build): no progress until the end
    }
    {
      std::unique_lock<std::mutex> lock(m);
      while (!main_done) {
        lock.unlock();
        progress(done.load(), r.configs);
        lock.lock();
        finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return main_done; });
      }
    }
    if (main_part.joinable()) main_part.join();
    progress(r.configs, r.configs);
  } else {
    work(0);
  }
  for (auto& th : pool) th.join();
  auto gather = [&](SweepSide& out, PartialSide Partial::*side) {
    std::int64_t first_bad = -1;
    for (const auto& part : parts) {
      const PartialSide& ps = part.*side;
      for (const auto& [w, n] : ps.histogram) out.histogram[w] += n;
      out.conflict_free += ps.conflict_free;
      out.lemma_agrees += ps.agrees;
      if (ps.first_bad >= 0 && (first_bad < 0 || ps.first_bad < first_bad)) first_bad = ps.first_bad;
    }
    if (first_bad >= 0) out.first_disagreement = masks_of_config(pl.g, static_cast<std::uint64_t>(first_bad));
  };
  gather(r.read, &Partial::read);
  gather(r.write, &Partial::write);
  for (const auto& part : parts) r.conflict_free_both += part.both;
  r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace swz
