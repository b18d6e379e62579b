#include "core/model/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace sv {

void forEachIndex(std::size_t count, int threads, const std::function<bool(std::size_t)>& job) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    auto worker = [&] {
        for (;;) {
            if (stopped.load()) return;
            const std::size_t n = next.fetch_add(1);
            if (n >= count) return;
            if (!job(n)) stopped.store(true);
        }
    };
    const std::size_t wanted = threads > 0
                                   ? static_cast<std::size_t>(threads)
                                   : std::max<std::size_t>(2, std::thread::hardware_concurrency());
    const std::size_t used = std::max<std::size_t>(1, std::min(wanted, count));
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < used; ++t)
        pool.emplace_back(worker);
    worker();
}

} // namespace sv
