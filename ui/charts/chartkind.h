#pragma once
// Which chart of an analysis: what a chart page shows, and what File › Export and
// scaleview-plot draw. Loss: the Speedup page's Where the scaling goes (issue 28).

namespace sv::ui {

enum class ChartKind { Throughput, Speedup, Efficiency, Trace, Loss };

} // namespace sv::ui
