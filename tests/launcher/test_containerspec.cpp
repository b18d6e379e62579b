// The container block without a dockerd: hostile image, mount and option values refused before
// anything starts, the JSON round trip, the docker command lines the launcher builds, and when
// and how the containers of a multi-node campaign get their own sshd (files, port, PATH).

#include "tests/launcher/launchertest.h"

#include "launcher/campaign/containerspec.h"
#include "launcher/campaign/identifiers.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/containercommands.h"
#include "launcher/exec/containerssh.h"
#include "launcher/exec/shellquote.h"

#include <algorithm>
#include <map>
#include <gtest/gtest.h>

using namespace sv::launcher;

namespace {

Campaign managedCampaign() {
    Campaign c = sv::test::fakeCampaign("local-cpu-rn50", "/tmp/sv-containerspec-out", 1);
    c.container.runtime = "docker";
    c.container.image = "nvidia_rn50_mx:20.03";
    c.container.mounts = {{"/data/imagenet", "/data/imagenet", true}};
    return c;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(what) != std::string::npos; });
}

template <typename T> bool contains(const std::vector<T>& v, const std::vector<T>& seq) {
    return std::search(v.begin(), v.end(), seq.begin(), seq.end()) != v.end();
}

} // namespace

TEST(ContainerSpec, ImageReferencesOfTheSeedAndRegistriesAreAcceptedHostileOnesRefused) {
    for (const char* ok : {"nvidia_rn50_mx:20.03", "nvcr.io/nvidia/mxnet:20.03-py3",
                           "localhost:5000/sv/empty:1", "sv/empty:1", "ubuntu",
                           "ubuntu@sha256:"
                           "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"})
        EXPECT_TRUE(isValidImageReference(ok)) << ok;
    for (const char* bad : {"", "-oProxyCommand=x", "a b", "$(id)", "img;touch x", "Upper/case",
                            "img:", "img:-tag", "a//b", "img`id`", "img@sha256:short", "img\n"})
        EXPECT_FALSE(isValidImageReference(bad)) << bad;
}

TEST(ContainerSpec, HostileMountsOptionsAndProgramsAreRefusedNamingTheField) {
    Campaign c = managedCampaign();
    c.container.mounts = {{"relative/dir", "/data", false},
                          {"/data", "/in:side", false},
                          {"/data/../etc", "/etc2", false},
                          {"/data", "/", false},
                          {"/da ta", "/data", false}};
    c.container.runArgs = {"-v", "x", "--name=other", "--rm", "--tmpfs=/tmp", "--x=\n"};
    c.container.program = "docker; rm -rf /";
    c.container.host = "-H evil";
    const auto e = c.validate();
    EXPECT_TRUE(mentions(e, "container.mounts[0].source: 'relative/dir'"));
    EXPECT_TRUE(mentions(e, "container.mounts[1].target: '/in:side' must not hold ':'"));
    EXPECT_TRUE(mentions(e, "container.mounts[2].source: '/data/../etc' must not hold"));
    EXPECT_TRUE(mentions(e, "container.mounts[3].target: '/' would hide"));
    EXPECT_TRUE(mentions(e, "container.mounts[4].source"));
    EXPECT_TRUE(mentions(e, "container.runArgs[0]: '-v'"));
    EXPECT_TRUE(mentions(e, "container.runArgs[1]: 'x'"));
    EXPECT_TRUE(mentions(e, "container.runArgs[2]: '--name=other' is set by the launcher"));
    EXPECT_TRUE(mentions(e, "container.runArgs[3]: '--rm' is set by the launcher"));
    EXPECT_FALSE(mentions(e, "container.runArgs[4]"));
    EXPECT_TRUE(mentions(e, "container.runArgs[5]"));
    EXPECT_TRUE(mentions(e, "container.program"));
    EXPECT_TRUE(mentions(e, "container.host"));

    Campaign both = managedCampaign();
    both.container.name = "running";
    EXPECT_TRUE(mentions(both.validate(), "either a running container's name or an image"));
    EXPECT_TRUE(managedCampaign().validate().empty());
}

TEST(ContainerSpec, JsonRoundTripAndTheCommandLinesMountForm) {
    Campaign c = managedCampaign();
    c.container.runArgs = {"--tmpfs=/tmp"};
    c.container.keep = true;
    c.container.program = "/usr/bin/docker";
    c.container.host = "unix:///run/user/docker.sock";
    std::string error;
    const auto back = campaignFromJson(campaignToJson(c), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->container.image, c.container.image);
    EXPECT_EQ(back->container.mounts, c.container.mounts);
    EXPECT_EQ(back->container.runArgs, c.container.runArgs);
    EXPECT_TRUE(back->container.keep);
    EXPECT_EQ(back->container.program, "/usr/bin/docker");
    EXPECT_EQ(back->container.host, "unix:///run/user/docker.sock");

    // Mounts may be written as on the command line; unknown keys are typos.
    const auto parsed = campaignFromJson(
        R"({"container": {"runtime": "docker", "image": "a:1", "mounts": ["/d:/data:ro", "/e:/e"]},
            "topologies": ["1n1g"], "batchSizes": [2], "outputDir": "/tmp/x"})",
        &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(parsed->container.mounts,
              (std::vector<ContainerMount>{{"/d", "/data", true}, {"/e", "/e", false}}));
    EXPECT_FALSE(
        campaignFromJson(R"({"container": {"runtime": "docker", "imgae": "a:1"}})", &error));
    EXPECT_NE(error.find("container: unknown key 'imgae'"), std::string::npos) << error;
    EXPECT_FALSE(campaignFromJson(R"({"container": {"mounts": ["/d:/data:rx"]}})", &error));
    EXPECT_NE(error.find("the mode after the target is ro or rw"), std::string::npos) << error;
}

TEST(ContainerCommands, OneContainerPerHostNamedForTheCampaignWithTheProfilesFlags) {
    Campaign c = managedCampaign();
    c.hosts = {Host{"n1", "", 0, "", 1}, Host{"n2", "", 0, "", 1}};
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile) << error;
    const ContainerCommands k(c, *profile);
    const std::string n0 = k.name(0), n1 = k.name(1);
    EXPECT_EQ(n0.substr(0, 3), "sv-");
    EXPECT_EQ(n0.size(), 3u + 12u + 2u);
    EXPECT_EQ(n1.substr(0, n1.size() - 1), n0.substr(0, n0.size() - 1));
    EXPECT_NE(n0, n1);
    EXPECT_TRUE(isValidContainerName(n0));
    // Stable for the campaign (resume finds it), different for another campaign.
    EXPECT_EQ(ContainerCommands(c, *profile).name(0), n0);
    Campaign other = c;
    other.outputDir = "/tmp/sv-containerspec-other";
    EXPECT_NE(ContainerCommands(other, *profile).name(0), n0);

    const auto run = k.runArgv(1);
    EXPECT_TRUE(contains(run, {"docker", "run", "-d", "--name", n1}));
    for (const char* flag :
         {"--net=host", "--privileged", "--shm-size=16g", "--ulimit=memlock=-1", "{gpus}"})
        EXPECT_TRUE(contains(run, {flag})) << flag;
    EXPECT_TRUE(contains(run, {"-v", "/data/imagenet:/data/imagenet:ro"}));
    EXPECT_TRUE(contains(run, {"-v", "/tmp/sv-containerspec-out:/tmp/sv-containerspec-out"}));
    EXPECT_TRUE(contains(run, {"nvidia_rn50_mx:20.03", "sleep", "infinity"}));

    // Started on the second host over ssh, with the GPU flag decided there; the runs exec in.
    const CommandBuilder b(c, *profile, "/tmp/w");
    const auto start = b.onHost(1, k.start(1), false);
    EXPECT_EQ(start.front(), "ssh");
    EXPECT_TRUE(contains(start, {"--", "n2"}));
    EXPECT_NE(start.back().find(shellCommand(run)), std::string::npos) << start.back();
    PlannedRun planned;
    planned.key.topology = *sv::parseTopology("2n1g");
    planned.key.batchPerDevice = 2;
    planned.key.precision = "fp32";
    const auto argv = b.runArgv(planned, "svtag");
    EXPECT_NE(argv.back().find("docker exec"), std::string::npos);
    EXPECT_NE(argv.back().find(n0), std::string::npos) << argv.back();
}

TEST(ContainerCommands, TheGpuFlagIsAddedOnlyWhereNvidiaSmiListsAGpu) {
    // The start script run for real on this machine (no GPU here: no --gpus), with echo as the
    // "docker" that shows what it would have been given.
    Campaign c = managedCampaign();
    c.container.program = "echo";
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile);
    const ContainerCommands k(c, *profile);
    auto argv = k.start(0);
    ASSERT_EQ(argv.front(), "sh");
    argv.front() = "/bin/sh"; // runProcess looks nothing up in PATH
    const auto r = sv::test::runProcess(argv);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.find("{gpus}"), std::string::npos) << r.out;
    const bool gpuHere = sv::test::runProcess({"/bin/sh", "-c", "nvidia-smi -L"}).exitCode == 0;
    EXPECT_EQ(r.out.find("--gpus=all") != std::string::npos, gpuHere) << r.out;
    EXPECT_NE(r.out.find("--privileged"), std::string::npos);
}

TEST(Cli, HostileContainerValuesAreRefusedBeforeAnyProcessStarts) {
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--container-image", "$(id)"},
          {"--container-image", "a:1", "--container-mount", "/data"},
          {"--container-image", "a:1", "--container-mount", "/data:/x;touch /tmp/sv-pwned"},
          {"--container", "running", "--container-image", "a:1"}}) {
        std::vector<std::string> argv{sv::test::kCli,
                                      "run",
                                      "--dry-run",
                                      "--topologies",
                                      "1n1g",
                                      "--batch-size",
                                      "2",
                                      "--out",
                                      "/tmp/sv-hostile-container-never"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        const auto r = sv::test::runProcess(argv);
        EXPECT_EQ(r.exitCode, 2) << extra[1] << r.out;
        EXPECT_NE(r.err.find("container"), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists("/tmp/sv-hostile-container-never"));
        EXPECT_FALSE(std::filesystem::exists("/tmp/sv-pwned"));
    }
}

TEST(ContainerSsh, OnlyAMultiNodeCampaignInStartedContainersGetsTheirOwnSshd) {
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c = managedCampaign();
    c.hosts = {Host{"n1", "10.0.0.1", 0, "", 1}, Host{"n2", "10.0.0.2", 0, "", 1}};
    c.topologies = {*sv::parseTopology("1n1g"), *sv::parseTopology("2n1g")};
    EXPECT_TRUE(CommandBuilder(c, *profile, "/w").containerSsh().needed());
    Campaign oneNode = c;
    oneNode.topologies = {*sv::parseTopology("1n1g")};
    EXPECT_FALSE(CommandBuilder(oneNode, *profile, "/w").containerSsh().needed());
    Campaign oneHost = c;
    oneHost.hosts.resize(1);
    EXPECT_FALSE(CommandBuilder(oneHost, *profile, "/w").containerSsh().needed());
    Campaign named = c; // a running container: set up by whoever started it
    named.container = {"docker", "mxnet_dlperf"};
    EXPECT_FALSE(CommandBuilder(named, *profile, "/w").containerSsh().needed());
    Campaign torchrun = c; // started on every node by the launcher: no ssh between them
    torchrun.launcher = "torchrun";
    EXPECT_FALSE(CommandBuilder(torchrun, *profile, "/w").containerSsh().needed());

    // A 2-node run finds the campaign's ssh first on its PATH, a 1-node run is as before.
    const CommandBuilder b(c, *profile, "/w");
    const std::string bin = b.containerSsh().binDir();
    EXPECT_EQ(bin, "/tmp/sv-containerspec-out/ssh/bin");
    for (const char* topology : {"1n1g", "2n1g"}) {
        PlannedRun run;
        run.key.topology = *sv::parseTopology(topology);
        run.key.batchPerDevice = 2;
        run.key.precision = "fp32";
        const std::string line = b.runArgv(run, "svtag").back();
        const bool multi = std::string(topology) == "2n1g";
        EXPECT_EQ(line.find(shellCommand({"sh", "-c",
                                          "PATH=\"$1:$PATH\"; export PATH; shift; "
                                          "exec \"$@\"",
                                          "sh", bin, "mpirun"})) != std::string::npos,
                  multi)
            << line;
        EXPECT_EQ(line.find("-e OMPI_MCA_plm_rsh_no_tree_spawn=1") != std::string::npos, multi)
            << line;
    }
}

TEST(ContainerSsh, KnownHostsNameEveryNodeAtThePortAndTheClientTrustsNoOtherKey) {
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c = managedCampaign();
    c.hosts = {Host{"n1", "", 0, "", 8}, Host{"n2", "", 0, "", 8}};
    c.topologies = {*sv::parseTopology("2n8g")};
    auto files = [&](const Campaign& campaign) {
        std::map<std::string, std::string> out;
        const ContainerSsh ssh(campaign, *profile, false);
        for (const auto& f :
             ssh.configFiles("ssh-ed25519 AAAAuser me@here\n", "ssh-ed25519 AAAAhost root@there\n",
                             {"10.0.0.1", "10.0.0.2"}))
            out[f.name] = f.text;
        return out;
    };
    auto seed = files(c); // the profile's {ssh_port}: the seed's 10001, as horovodrun -p says
    EXPECT_EQ(seed["known_hosts"], "[10.0.0.1]:10001,[10.0.0.2]:10001 ssh-ed25519 AAAAhost\n");
    EXPECT_EQ(seed["authorized_keys"], "ssh-ed25519 AAAAuser scaleview-campaign\n");
    for (const char* line :
         {"  Port 10001\n", "  StrictHostKeyChecking yes\n", "  BatchMode yes\n",
          "  IdentitiesOnly yes\n", "  IdentityFile \"/tmp/sv-containerspec-out/ssh/id_ed25519\"\n",
          "  UserKnownHostsFile \"/tmp/sv-containerspec-out/ssh/known_hosts\"\n",
          "  GlobalKnownHostsFile /dev/null\n"})
        EXPECT_NE(seed["ssh_config"].find(line), std::string::npos) << line;
    for (const char* line : {"Port 10001\n", "PasswordAuthentication no\n",
                             "HostKey \"/tmp/sv-containerspec-out/ssh/host_ed25519\"\n"})
        EXPECT_NE(seed["sshd_config"].find(line), std::string::npos) << line;

    c.variables["ssh_port"] = "2222";
    auto other = files(c);
    EXPECT_EQ(other["known_hosts"].rfind("[10.0.0.1]:2222,[10.0.0.2]:2222 ", 0), 0u);
    EXPECT_NE(other["sshd_config"].find("Port 2222\n"), std::string::npos);
    EXPECT_FALSE(ContainerSsh(c, *profile, false).problem());
    // Text that would become a line of its own in sshd_config is no port.
    c.variables["ssh_port"] = "22\nPermitEmptyPasswords yes";
    const auto problem = ContainerSsh(c, *profile, false).problem();
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("not a port number"), std::string::npos) << *problem;
}
