#include "launcher/monitor/environmentcapture.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/exec/shellquote.h"
#include "core/model/atomicfile.h"

#include <QDateTime>
#include <filesystem>
#include <memory>

namespace sv::launcher {
namespace {

const char* kProbe =
    "echo \"== hostname\"; hostname; echo \"== kernel\"; uname -a; "
    "echo \"== cpus\"; nproc; "
    "if command -v nvidia-smi >/dev/null 2>&1; then echo \"== nvidia-smi -q\"; nvidia-smi -q; "
    "echo \"== nvidia-smi topo -m\"; nvidia-smi topo -m; else echo \"== nvidia-smi: not present\"; "
    "fi; "
    "if [ -n \"$1\" ]; then echo \"== python\"; \"$1\" -c 'import sys; print(sys.version)' 2>&1; "
    // torch's version as `import torch` would give it, read from torch/version.py where the
    // package has one: importing torch costs seconds of CPU on every host of every campaign. The
    // import stays the fallback, and says why where torch is missing or broken.
    "\"$1\" -c '"
    "import importlib.util as u, os\n"
    "s = u.find_spec(\"torch\")\n"
    "v = {}\n"
    "p = os.path.join(os.path.dirname(s.origin), \"version.py\") if s and s.origin else \"\"\n"
    "if p and os.path.isfile(p): exec(open(p).read(), v)\n"
    "if \"__version__\" not in v:\n"
    "    import torch\n"
    "    v[\"__version__\"] = torch.__version__\n"
    "print(\"torch\", v[\"__version__\"])"
    "' 2>&1; fi; "
    "echo \"== mpirun\"; mpirun --version 2>&1 | head -n 1; exit 0";

bool write(const std::string& path, const std::string& text) {
    return !writeFileAtomically(path, text);
}

// The section a probe that timed out was in: the last "== " header it printed.
std::string lastSection(const std::string& output) {
    const auto at = output.rfind("== ");
    if (at == std::string::npos || (at > 0 && output[at - 1] != '\n')) return {};
    const auto end = output.find('\n', at);
    return output.substr(at + 3, end == std::string::npos ? std::string::npos : end - at - 3);
}

// What a capture asks each host, in order: the probe (on the host itself, or in the running
// container it names), then, with docker, the image and the server's version.
std::vector<BatchCommand> captureCommands(const CommandBuilder& builder, int hosts,
                                          const std::string& python, int limit) {
    std::vector<BatchCommand> cmds;
    const ContainerCommands& containers = builder.containers();
    for (int h = 0; h < hosts; ++h) {
        // The containers the launcher starts are not up yet: the hosts themselves, and below
        // the image and how each container will be started.
        cmds.push_back(
            {builder.onHost(h, {"sh", "-c", kProbe, "sh", python}, !containers.managed()),
             {},
             limit});
        if (containers.any()) {
            auto image = containers.inspectImage();
            if (!containers.managed()) {
                image = containers.docker();
                image.insert(image.end(),
                             {"inspect", "--format", "{{.Image}}", containers.name(h)});
            }
            cmds.push_back({builder.onHost(h, image, false), {}, limit});
            cmds.push_back({builder.onHost(h, containers.version(), false), {}, limit});
        }
    }
    return cmds;
}

// Host h's file from its answers (results[i...], i moved past them); a probe that timed out is
// a problem, said with the section it was stuck in.
std::string hostText(const CommandBuilder& builder, int h, const std::string& header,
                     const std::vector<BatchResult>& results, std::size_t& i, int limit,
                     std::vector<std::string>& problems) {
    const BatchResult& probe = results[i++];
    std::string text = header + probe.output + probe.errors;
    if (probe.exitCode != 0)
        text += "(probe failed: exit " + std::to_string(probe.exitCode) +
                (probe.timedOut ? ", timed out" : "") + ")\n";
    if (probe.timedOut) {
        const std::string section = lastSection(probe.output);
        problems.push_back("capturing the environment of " + builder.hostName(h) +
                           ": no answer within " + std::to_string(limit / 1000) + " s" +
                           (section.empty() ? std::string() : " (stuck in '" + section + "')") +
                           "; the campaign goes on without it");
    }
    const ContainerCommands& containers = builder.containers();
    if (!containers.any()) return text;
    const BatchResult& image = results[i++];
    const BatchResult& version = results[i++];
    if (containers.managed())
        text += "== container image " + containers.image() + " (id, repo digests)\n" +
                image.output + image.errors + "== container " + containers.name(h) +
                " run command\n" + shellCommand(containers.runArgv(h)) + "\n";
    else
        text += "== container " + containers.name(h) + " image\n" + image.output + image.errors;
    return text + "== docker server version\n" + version.output + version.errors;
}

// The files, each an atomic write (an fsync, core/model/atomicfile.h), on a worker thread; then
// done(result).
void writeFiles(const std::filesystem::path& dir,
                std::vector<std::pair<std::string, std::string>> files,
                EnvironmentCapture::Result result, QObject* context,
                std::function<void(EnvironmentCapture::Result)> done) {
    async::runInBackground(
        context,
        [dir, files = std::move(files), result]() mutable {
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            for (const auto& [path, text] : files) {
                if (write(path, text))
                    ++result.files;
                else
                    result.problems.push_back("cannot write " + path);
            }
            return result;
        },
        std::move(done));
}

} // namespace

void EnvironmentCapture::run(const Campaign& campaign, const WorkloadProfile& profile,
                             const std::string& version, QObject* context,
                             std::function<void(Result)> done, std::chrono::milliseconds timeout) {
    auto builder = std::make_shared<CommandBuilder>(campaign, profile, std::string());
    const auto dir = std::filesystem::absolute(campaign.outputDir) / "environment";
    const std::string stamp =
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
    std::string python =
        profile.variables.count("python") ? profile.variables.at("python") : "python3";
    if (campaign.variables.count("python")) python = campaign.variables.at("python");
    if (profile.needs != "torch")
        python.clear(); // importing torch takes seconds: only where it is used
    const int hosts = std::max<int>(1, static_cast<int>(campaign.hosts.size()));
    const int limit = static_cast<int>(timeout.count());
    const std::string header =
        "ScaleView " + version + "\nprofile " + profile.name + ": " + profile.label + "\n";
    const std::string campaignText = campaignToJson(campaign);
    CommandBatch::run(captureCommands(*builder, hosts, python, limit), context,
                      [=](std::vector<BatchResult> results) {
                          std::vector<std::pair<std::string, std::string>> files{
                              {(dir / (stamp + "-campaign.json")).string(), campaignText}};
                          Result result;
                          std::size_t i = 0;
                          for (int h = 0; h < hosts; ++h) {
                              const std::string text =
                                  hostText(*builder, h, header, results, i, limit, result.problems);
                              std::string host = builder->hostName(h);
                              for (char& c : host)
                                  if (c == ' ') c = '-';
                              files.emplace_back((dir / (stamp + "-" + host + ".txt")).string(),
                                                 text);
                          }
                          writeFiles(dir, std::move(files), std::move(result), context, done);
                      });
}

} // namespace sv::launcher
