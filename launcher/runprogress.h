#pragma once
// Where a campaign stands, for a progress line or a progress bar.

#include <cstdint>
#include <string>

namespace sv::launcher {

struct RunProgress {
    int index = 0; // of the run in the campaign's plan
    int total = 0; // runs in the plan
    std::string id;
    std::int64_t iteration = 0; // iterations every rank has logged
    int iterations = 0;
    double speed = 0.0;        // the last speed line's samples/s
    double runEtaSeconds = -1; // -1: not known yet
    double campaignEtaSeconds = -1;
};

} // namespace sv::launcher
