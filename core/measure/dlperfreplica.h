#pragma once
// What one DLPerf extraction script computes for one log, quirks included, fed the same samples
// as ScaleView's own analyzer: `summarize --format dlperf` prints these figures, and a run's
// note gives both where they differ.

#include "core/parse/sample.h"

#include <memory>
#include <optional>
#include <string>

namespace sv {

class DlperfReplica {
  public:
    virtual ~DlperfReplica() = default;
    virtual void add(const SpeedSample& sample) = 0;
    // The script's figure for the file (0 or NaN where the script records that), or nullopt
    // with *failure saying where the script stops with an error.
    virtual std::optional<double> figure(std::string* failure) const = 0;
    // The quirk behind a difference from ScaleView's figure, in words ("it reads ...").
    virtual std::string quirk() const = 0;
};

} // namespace sv
