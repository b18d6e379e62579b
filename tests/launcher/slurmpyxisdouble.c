/* A SPANK test double for NVIDIA pyxis, for the Slurm tests: pyxis is not packaged in Debian,
 * so srun would refuse --container-image. This plugin registers pyxis' srun options under
 * pyxis' names (srun --help lists them, as preflight checks) and, instead of entering a
 * container, appends one line per task to the file given as `record=PATH` in plugstack.conf:
 * the task's rank and node and every option value exactly as srun passed it. The task runs on
 * the host, unchanged. */

#include <slurm/spank.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The macro ends in its own semicolon; a second one is an empty declaration. */
SPANK_PLUGIN(pyxis, 1)

enum { kImage, kMounts, kWorkdir, kName, kEnv, kSave, kValues };
static const char* const kValueNames[kValues] = {"image", "mounts", "workdir",
                                                 "name",  "env",    "save"};
/* Each option's value, as srun passed it to the remote side; the flags as "1" when given. */
static char g_values[kValues][4096];
enum {
    kEntrypoint,
    kNoEntrypoint,
    kRemapRoot,
    kNoRemapRoot,
    kMountHome,
    kNoMountHome,
    kWritable,
    kReadonly,
    kFlags
};
static const char* const kFlagNames[kFlags] = {"container-entrypoint", "no-container-entrypoint",
                                               "container-remap-root", "no-container-remap-root",
                                               "container-mount-home", "no-container-mount-home",
                                               "container-writable",   "container-readonly"};
static int g_flags[kFlags];

static int takeValue(int val, const char* optarg, int remote) {
    (void)remote;
    if (val < 0 || val >= kValues || !optarg) return -1;
    snprintf(g_values[val], sizeof g_values[val], "%s", optarg);
    return 0;
}

static int takeFlag(int val, const char* optarg, int remote) {
    (void)optarg;
    (void)remote;
    if (val < 0 || val >= kFlags) return -1;
    g_flags[val] = 1;
    return 0;
}

struct spank_option spank_options[] = {
    {"container-image", "[USER@][REGISTRY#]IMAGE[:TAG]|PATH", "[pyxis double] the image", 1, kImage,
     takeValue},
    {"container-mounts", "SRC:DST[:FLAGS][,SRC:DST...]", "[pyxis double] bind mounts", 1, kMounts,
     takeValue},
    {"container-workdir", "PATH", "[pyxis double] working directory", 1, kWorkdir, takeValue},
    {"container-name", "NAME", "[pyxis double] container name", 1, kName, takeValue},
    {"container-env", "NAME[,NAME...]", "[pyxis double] variables to override", 1, kEnv, takeValue},
    {"container-save", "PATH", "[pyxis double] save the container", 1, kSave, takeValue},
    {"container-entrypoint", NULL, "[pyxis double]", 0, kEntrypoint, takeFlag},
    {"no-container-entrypoint", NULL, "[pyxis double]", 0, kNoEntrypoint, takeFlag},
    {"container-remap-root", NULL, "[pyxis double]", 0, kRemapRoot, takeFlag},
    {"no-container-remap-root", NULL, "[pyxis double]", 0, kNoRemapRoot, takeFlag},
    {"container-mount-home", NULL, "[pyxis double]", 0, kMountHome, takeFlag},
    {"no-container-mount-home", NULL, "[pyxis double]", 0, kNoMountHome, takeFlag},
    {"container-writable", NULL, "[pyxis double]", 0, kWritable, takeFlag},
    {"container-readonly", NULL, "[pyxis double]", 0, kReadonly, takeFlag},
    SPANK_OPTIONS_TABLE_END};

/* In the task, on its node: one line, written whole with O_APPEND so that tasks on several
 * nodes do not interleave. Steps without a container option (the batch script) write nothing. */
int slurm_spank_task_init(spank_t sp, int ac, char** av) {
    if (!spank_remote(sp)) return 0;
    int any = 0;
    for (int i = 0; i < kValues; ++i)
        any |= g_values[i][0] != '\0';
    for (int i = 0; i < kFlags; ++i)
        any |= g_flags[i];
    const char* record = NULL;
    for (int i = 0; i < ac; ++i)
        if (strncmp(av[i], "record=", 7) == 0) record = av[i] + 7;
    if (!any || !record) return 0;

    char rank[32] = "?", node[256] = "?";
    spank_getenv(sp, "SLURM_PROCID", rank, sizeof rank);
    spank_getenv(sp, "SLURMD_NODENAME", node, sizeof node);
    char line[8 * 4096 + 1024];
    int n = snprintf(line, sizeof line, "rank=%s\tnode=%s", rank, node);
    for (int i = 0; i < kValues && n < (int)sizeof line; ++i)
        if (g_values[i][0])
            n +=
                snprintf(line + n, sizeof line - (size_t)n, "\t%s=%s", kValueNames[i], g_values[i]);
    for (int i = 0; i < kFlags && n < (int)sizeof line; ++i)
        if (g_flags[i]) n += snprintf(line + n, sizeof line - (size_t)n, "\t%s", kFlagNames[i]);
    if (n >= (int)sizeof line - 1) n = (int)sizeof line - 2;
    line[n++] = '\n';
    const int fd = open(record, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        slurm_error("pyxis double: cannot open %s", record);
        return -1;
    }
    const ssize_t written = write(fd, line, (size_t)n);
    close(fd);
    return written == n ? 0 : -1;
}
