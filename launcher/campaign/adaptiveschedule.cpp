#include "launcher/campaign/adaptiveschedule.h"

#include "core/stats/confidence.h"

#include <algorithm>

namespace sv::launcher {

AdaptiveSchedule::AdaptiveSchedule(Campaign campaign, WorkloadProfile profile)
    : m_campaign(std::move(campaign)), m_profile(std::move(profile)),
      m_policy(RepeatsPolicy::of(m_campaign)) {
    for (int batch : m_campaign.batchSizes)
        for (const auto& precision : m_campaign.precisions)
            for (const auto& topology : m_campaign.topologies) {
                const PlannedRun first =
                    planRun(m_campaign, m_profile, batch, precision, topology, 1);
                // core's seed text for the case (casestats.cpp): the same runs then give the
                // same interval here as on the Results page.
                const std::string seedText = m_profile.model + "/" + precision + "/" +
                                             std::to_string(batch) + "/" + topology.name();
                m_cases.push_back(
                    Case{first.caseId, batch, precision, topology, seedFor(seedText)});
            }
}

void AdaptiveSchedule::adopt(std::vector<PlannedRun>& runs, std::vector<RunState>& states,
                             const std::map<std::string, JournalEntry>& previous,
                             const std::map<std::string, CaseStop>& stopped) {
    for (const Case& c : m_cases) {
        // Repeats are numbered one after another, so the first number the journal does not
        // know is where this case's runs end; an interrupted one is rerun under its number
        // (its partial log set aside), never a finished one.
        for (int repeat = m_campaign.repeats + 1;; ++repeat) {
            PlannedRun r = planRun(m_campaign, m_profile, c.batch, c.precision, c.topology, repeat);
            auto it = previous.find(r.id);
            if (it == previous.end()) break;
            runs.push_back(std::move(r));
            states.push_back(it->second.state());
        }
        if (stopped.count(c.id)) m_stopped.insert(c.id);
    }
    for (const auto& [id, entry] : previous)
        if (entry.end) m_ends[id] = *entry.end;
}

void AdaptiveSchedule::ended(const std::string& id, const RunEnd& end) {
    m_ends[id] = end;
}

CaseTally AdaptiveSchedule::tally(const std::string& caseId, const std::vector<PlannedRun>& runs,
                                  const std::vector<RunState>& states) const {
    CaseTally t;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].caseId != caseId) continue;
        if (!isFinal(states[i])) {
            ++t.unfinished;
            continue;
        }
        const auto end = m_ends.find(runs[i].id);
        const bool counts = states[i] == RunState::Ok && end != m_ends.end() &&
                            (m_campaign.countDisturbed || !end->second.isDisturbed()) &&
                            end->second.timeThroughput;
        if (counts)
            t.counted.push_back(*end->second.timeThroughput);
        else
            ++t.notCounted;
    }
    return t;
}

AdaptiveSchedule::Step AdaptiveSchedule::next(const std::vector<PlannedRun>& runs,
                                              const std::vector<RunState>& states) {
    Step step;
    const Case* pick = nullptr;
    int pickRuns = 0;
    for (const Case& c : m_cases) {
        if (m_stopped.count(c.id)) continue;
        const CaseTally t = tally(c.id, runs, states);
        const CaseVerdict v = judgeCase(t, m_policy, c.seed);
        if (v.next == CaseVerdict::Next::Stop) {
            m_stopped.insert(c.id);
            step.stops.push_back(
                CaseStop{c.id, static_cast<int>(t.counted.size()), v.ciPct, v.reason});
        } else if (v.next == CaseVerdict::Next::Run) {
            // Top-ups go round the cases that need them, the one with fewest runs first (then
            // in the plan's order): consecutive repeats of a case are then minutes apart, so a
            // passing disturbance is less likely to touch all of them, and every case gets
            // closer to its target at a similar pace if the campaign is stopped early.
            const int n = static_cast<int>(t.counted.size()) + t.notCounted;
            if (!pick || n < pickRuns) {
                pick = &c;
                pickRuns = n;
            }
        }
    }
    if (pick) {
        int repeat = 0;
        for (const PlannedRun& r : runs)
            if (r.caseId == pick->id) repeat = std::max(repeat, r.key.repeat);
        step.run = planRun(m_campaign, m_profile, pick->batch, pick->precision, pick->topology,
                           repeat + 1);
    }
    return step;
}

bool AdaptiveSchedule::wantsMore(const std::vector<PlannedRun>& runs,
                                 const std::vector<RunState>& states) const {
    return std::any_of(m_cases.begin(), m_cases.end(), [&](const Case& c) {
        return !m_stopped.count(c.id) &&
               judgeCase(tally(c.id, runs, states), m_policy, c.seed).next ==
                   CaseVerdict::Next::Run;
    });
}

RunRange AdaptiveSchedule::remaining(const std::vector<PlannedRun>& runs,
                                     const std::vector<RunState>& states, int current) const {
    RunRange total;
    const std::string currentCase =
        current >= 0 ? runs.at(static_cast<std::size_t>(current)).caseId : std::string();
    for (const Case& c : m_cases) {
        const RunRange r = remainingRuns(tally(c.id, runs, states), m_policy,
                                         m_stopped.count(c.id) > 0, c.id == currentCase);
        total.least += r.least;
        total.most += r.most;
    }
    return total;
}

} // namespace sv::launcher
