#pragma once
// One case over the campaigns of the history: the median of each campaign joined in time order,
// its min-max as a whisker, the latest point in the problem colour when it is a regression, and
// each change point (history::CaseStep) marked at its campaign with what changed there.

#include <QString>

class QChart;

namespace sv::history {
struct CaseTrend;
struct CaseStep;
}

namespace sv::ui {

class HistoryChart {
  public:
    static QChart* build(const history::CaseTrend& trend);
    // A change point's marker: its series' name (the legend) and its label on the chart (what
    // changed there), e.g. "change point: night5 (-10.0 %)" and
    // "step -10.0 %: driver 535.104.05 -> 550.54.14".
    static QString changePointName(const history::CaseTrend& trend, const history::CaseStep& step);
    static QString changePointLabel(const history::CaseStep& step);
};

} // namespace sv::ui
