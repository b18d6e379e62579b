#pragma once
// What a reader must know before trusting a case's figure, in words: repeats that disagree, a
// speedup beyond what the hardware can give, methods that disagree, a slow rank, a drifting run,
// too few repeats. A clean set of repeats gets none.

#include "core/stats/casestats.h"
#include "core/model/runresult.h"

#include <optional>
#include <vector>

namespace sv {

// used: the runs behind c.values, in the same order. Needs c's statistics, speedup and
// efficiency already computed.
std::vector<CaseWarning> caseWarnings(const CaseStats& c, const std::vector<const RunResult*>& used,
                                      const TrustOptions& trust);

// The `disturbed` warning for the runs among `runs` the launcher's monitor marked disturbed,
// naming their repeats and evidence; leftOut: they were excluded from the statistics.
std::optional<CaseWarning> disturbedWarning(const std::vector<const RunResult*>& runs,
                                            bool leftOut);

} // namespace sv
