#include "core/parse/logformat.h"

#include "core/model/runkey.h"
#include "core/model/runresult.h"

namespace sv {

int ranksLogging(const LogFormat& format, const Topology& topology) {
    return format.family == FormatFamily::MxnetSpeedometer ? topology.ranks() : 1;
}

MeasureOptions windowFor(const LogFormat& format, const MeasureOptions& measure) {
    if (!measure.formatDefaults) return measure;
    return MeasureOptions{format.defaultWarmup, format.defaultIterations};
}

} // namespace sv
