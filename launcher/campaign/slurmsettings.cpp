#include "launcher/campaign/slurmsettings.h"

#include "launcher/campaign/identifiers.h"

#include <regex>
#include <set>

namespace sv::launcher {
namespace {

bool printableWithoutSpace(const std::string& s) {
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f) return false;
    }
    return true;
}

// Options that ScaleView sets itself for every job: given twice, sbatch would take the last,
// and the run would not be the one planned (or its log not where the journal says).
const std::set<std::string> kOwnOptions = {"--nodes",         "--ntasks",    "--ntasks-per-node",
                                           "--gpus-per-node", "--output",    "--error",
                                           "--parsable",      "--wrap",      "--chdir",
                                           "--job-name",      "--wait",      "--test-only",
                                           "--array",         "--open-mode", "--export",
                                           "--get-user-env",  "--uid",       "--gid",
                                           "--dependency",    "--requeue",   "--no-requeue"};

} // namespace

bool isValidSlurmName(const std::string& name) {
    static const std::regex re(R"([A-Za-z0-9_][A-Za-z0-9_.\-]{0,63})");
    return std::regex_match(name, re);
}

bool isValidSlurmConstraint(const std::string& c) {
    static const std::regex re(R"([A-Za-z0-9_\[\(][A-Za-z0-9_.&|,:*\[\]()\-]{0,255})");
    return std::regex_match(c, re);
}

bool isValidSlurmTimeLimit(const std::string& t) {
    static const std::regex re(
        R"(UNLIMITED|INFINITE|\d{1,7}|\d{1,7}:\d{1,2}|\d{1,5}:\d{1,2}:\d{1,2}|\d{1,4}-\d{1,2}(:\d{1,2}(:\d{1,2})?)?)");
    return std::regex_match(t, re);
}

std::vector<std::string> SlurmSettings::validate() const {
    std::vector<std::string> e;
    if (type != "none" && type != "slurm") {
        e.push_back("scheduler.type: '" + type + "' is neither none nor slurm");
        return e;
    }
    if (!enabled()) return e;
    auto name = [&e](const char* field, const std::string& value) {
        if (!value.empty() && !isValidSlurmName(value))
            e.push_back(std::string("scheduler.") + field + ": '" + value +
                        "' is not a Slurm name (letters, digits, _ . -, not starting with -)");
    };
    name("partition", partition);
    name("account", account);
    name("qos", qos);
    name("reservation", reservation);
    if (!constraint.empty() && !isValidSlurmConstraint(constraint))
        e.push_back("scheduler.constraint: '" + constraint +
                    "' is not a feature expression (features joined by & | , [ ] ( ) *)");
    if (!timeLimit.empty() && !isValidSlurmTimeLimit(timeLimit))
        e.push_back("scheduler.timeLimit: '" + timeLimit +
                    "' is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]])");
    if (launch != "srun" && launch != "mpirun")
        e.push_back("scheduler.launch: '" + launch + "' is neither srun nor mpirun");
    static const std::regex option(R"(--[a-z][a-z0-9\-]*(=.*)?)");
    for (std::size_t i = 0; i < extraSbatchArgs.size(); ++i) {
        const std::string& a = extraSbatchArgs[i];
        const std::string where =
            "scheduler.extraSbatchArgs[" + std::to_string(i) + "]: '" + a + "'";
        if (!std::regex_match(a, option) || !printableWithoutSpace(a))
            e.push_back(where + " is not one --option or --option=value without spaces");
        else if (kOwnOptions.count(a.substr(0, a.find('='))))
            e.push_back(where + " is set by ScaleView itself for every run");
    }
    static const std::regex image(R"([A-Za-z0-9][A-Za-z0-9_.:/#@+\-]{0,511})");
    if (!containerImage.empty() && !std::regex_match(containerImage, image))
        e.push_back("scheduler.containerImage: '" + containerImage + "' is not an image name");
    for (const auto& m : containerMounts)
        if (m.empty() || m.front() != '/' || m.find(',') != std::string::npos ||
            !isValidPlainPath(m))
            e.push_back("scheduler.containerMounts: '" + m +
                        "' is not /source[:/destination[:flags]] without spaces, quotes or commas");
    if (!containerWorkdir.empty() && !isValidPlainPath(containerWorkdir))
        e.push_back("scheduler.containerWorkdir: '" + containerWorkdir +
                    "' is not an absolute path without spaces or quotes");
    if (containerImage.empty() && (!containerMounts.empty() || !containerWorkdir.empty()))
        e.push_back("scheduler.containerMounts/containerWorkdir: need a containerImage");
    return e;
}

} // namespace sv::launcher
