#pragma once
// One case over the campaigns of the history: the median of each campaign joined in time order,
// its min-max as a whisker, the latest point in the problem colour when it is a regression.

class QChart;

namespace sv::history {
struct CaseTrend;
}

namespace sv::ui {

class HistoryChart {
  public:
    static QChart* build(const history::CaseTrend& trend);
};

} // namespace sv::ui
