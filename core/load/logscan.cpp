#include "core/load/logscan.h"

#include "core/formats/generalreader.h"
#include "core/formats/realworld.h"
#include "core/model/modelname.h"
#include "core/load/runidentity.h"
#include "core/formats/formatregistry.h"
#include "core/parse/runfacts.h"
#include "core/formats/userformat.h"
#include "core/formats/userformatfacts.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sys/stat.h>

namespace sv {
namespace fs = std::filesystem;
namespace {

// A file whose first 1 MiB holds no line break: no line of it can be read, and the file's
// reason says so (a progress bar redrawn with carriage returns writes such a file). The
// directory scan warns about it: a log this long is not an "other file" to pass over in silence.
const char* const kFirstLineTooLong = "not read as a log: its first line runs past ";

std::string firstLineTooLong(const std::string& head) {
    return kFirstLineTooLong + std::to_string(kDetectBytes >> 20) + " MiB without a line break" +
           (head.find('\r') != std::string::npos
                ? " (its lines end in carriage returns only: a progress bar's redraws?)"
                : "") +
           "; lines that long are not log lines";
}

// The first bytes of a file: 64 KiB, then up to kDetectBytes where the first chunk was text
// but showed no log line yet (a long preamble).
bool readHead(const fs::path& path, std::string& head, bool more, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (error) *error = std::strerror(errno);
        return false;
    }
    // A FIFO read without blocking gives nothing, which once read as "the file is empty".
    struct stat st {};
    if (::fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        ::close(fd);
        if (error)
            *error = S_ISFIFO(st.st_mode)   ? "a FIFO (named pipe), not a file"
                     : S_ISCHR(st.st_mode)  ? "a character device, not a file"
                     : S_ISBLK(st.st_mode)  ? "a block device, not a file"
                     : S_ISSOCK(st.st_mode) ? "a socket, not a file"
                                            : "not a regular file";
        return false;
    }
    const std::size_t want = more ? kDetectBytes : std::size_t{1} << 16;
    head.resize(want);
    std::size_t got = 0;
    while (got < want) {
        const ssize_t n = ::read(fd, head.data() + got, want - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    head.resize(got);
    return true;
}

// What a directory entry that is neither a folder nor a regular file is, in words: a FIFO or a
// device would block or never end a read, so each is named and skipped unread.
const char* notAFile(const fs::directory_entry& entry) {
    std::error_code ec;
    const fs::file_status st = entry.status(ec);
    if (ec) return nullptr;
    if (fs::is_fifo(st)) return "a FIFO (named pipe)";
    if (fs::is_character_file(st)) return "a character device";
    if (fs::is_block_file(st)) return "a block device";
    if (fs::is_socket(st)) return "a socket";
    return nullptr;
}

// head with the lines of Markdown code blocks ("```" to "```") emptied, their line breaks kept:
// log lines quoted in a note are not the file's own.
std::string withoutQuotedBlocks(const std::string& head) {
    if (head.rfind("```", 0) != 0 && head.find("\n```") == std::string::npos) return head;
    std::string out;
    out.reserve(head.size());
    bool quoted = false;
    std::size_t at = 0;
    while (at < head.size()) {
        const auto nl = head.find('\n', at);
        const std::size_t end = nl == std::string::npos ? head.size() : nl;
        const bool fence = head.compare(at, 3, "```") == 0;
        if (fence) quoted = !quoted;
        if (!quoted && !fence) out.append(head, at, end - at);
        if (nl != std::string::npos) out.push_back('\n');
        at = end + 1;
    }
    return out;
}

// Why a file with rate-like lines was not read, naming its best candidate line: the words the
// app's warnings list offers Teach ScaleView this log… on.
std::string notReadText(const RateCandidate& c) {
    return "not read: no known format, and its rate lines (" + std::to_string(c.reports) +
           (c.reports == 1 ? " line" : " lines") +
           " like it) are no series of training reports the general reader takes; best "
           "candidate, line " +
           std::to_string(c.line) + ": " + c.text.substr(0, 160) +
           " (Teach ScaleView this log… reads it)";
}

// RunKey::ownCase: the display path less the repeat's number its name holds ("result_3.txt" ->
// "result_.txt"), so that a log's repeats stay one case and two other logs are two.
std::string ownCaseOf(const std::string& display, const PathHints& hints) {
    const fs::path p(display);
    std::string stem = p.stem().string();
    if (hints.repeat) {
        const std::string repeat = std::to_string(*hints.repeat);
        if (const auto at = stem.rfind(repeat); at != std::string::npos)
            stem.erase(at, repeat.size());
    }
    return (p.parent_path() / (stem + p.extension().string())).string();
}

// A DLPerf log outside its <N>n<G>g folder: its ranks say how many processes ran, not over how
// many nodes, so its topology is unknown and the run says why.
void unknownTopology(RunKey& key) {
    if (key.origins.topology == KeySource::Sidecar) return;
    key.topology = Topology{};
    key.origins.topology = KeySource::Unknown;
    key.origins.nodesUnknown = false;
    key.origins.details.push_back(
        "topology ?: a DLPerf NGC MXNet log outside an <N>n<G>g folder, whose ranks do not say "
        "over how many nodes it ran (a scaleview.json beside it can say)");
}

// The file's last 64 KiB after `after` bytes, from its first whole line; false when the file
// ends within `after` bytes.
bool readTail(const fs::path& path, std::size_t after, std::string& tail) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    const bool ok = ::fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) > after;
    if (ok) {
        const std::size_t size = static_cast<std::size_t>(st.st_size);
        const std::size_t from = std::max(after, size - std::min(size, std::size_t{1} << 16));
        tail.resize(size - from);
        std::size_t got = 0;
        while (got < tail.size()) {
            const ssize_t n =
                ::pread(fd, tail.data() + got, tail.size() - got, static_cast<off_t>(from + got));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        tail.resize(got);
        // From the first whole line, unless the tail starts where the head ended.
        if (from > after) {
            const auto nl = tail.find('\n');
            tail.erase(0, nl == std::string::npos ? tail.size() : nl + 1);
        }
    }
    ::close(fd);
    return ok && !tail.empty();
}

struct Walker {
    const fs::path root;
    ScanResult& out;
    std::set<std::pair<dev_t, ino_t>> visited;
    Sidecars sidecars{root};

    std::string display(const fs::path& p) const {
        auto rel = p.lexically_relative(root);
        return rel.empty() ? p.string() : rel.string();
    }

    void warn(const fs::path& p, std::string message) {
        out.warnings.push_back({display(p), 0, std::move(message)});
    }

    // A directory the launcher wrote a campaign into: its campaign.json and journal.jsonl.
    static bool isCampaignRoot(const fs::path& dir) {
        std::error_code ec;
        return fs::is_regular_file(dir / "campaign.json", ec) &&
               fs::is_regular_file(dir / "journal.jsonl", ec);
    }
    // What a campaign root holds besides its logs/ (launcher/campaign/campaigndirectory.h and
    // the runner write these): counted, never sniffed.
    static bool isCampaignRecord(const fs::directory_entry& entry, bool isDir) {
        static const std::set<std::string> files{"campaign.json", "journal.jsonl", "probes.json"};
        static const std::set<std::string> dirs{"environment", "monitor", "workload", "probes",
                                                "ssh"};
        const std::string name = entry.path().filename().string();
        return isDir ? dirs.count(name) > 0 : files.count(name) > 0;
    }
    // Every regular file below dir is a campaign record (environment/, monitor/ ...).
    void countRecords(const fs::path& dir, int depth) {
        std::error_code ec;
        if (depth > 16) return;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code sec;
            if (it->is_symlink(sec)) continue;
            if (it->is_directory(sec))
                countRecords(it->path(), depth + 1);
            else if (it->is_regular_file(sec)) {
                ++out.filesRead;
                ++out.campaignFiles;
            }
        }
    }

    // topology: the nearest enclosing folder named NnGg, if any.
    void walk(const fs::path& dir, std::optional<Topology> topology, int depth) {
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0) {
            warn(dir, "cannot be read; skipped");
            return;
        }
        if (!visited.insert({st.st_dev, st.st_ino}).second) {
            warn(dir, "already scanned (a symlink loop or a second link); not followed again");
            return;
        }
        if (depth > 64) {
            warn(dir, "nested more than 64 folders deep; skipped");
            return;
        }
        std::error_code ec;
        // No skip_permission_denied: a folder the user may not read would vanish without a word.
        fs::directory_iterator it(dir, ec);
        if (ec) {
            warn(dir, "cannot be read (" + ec.message() + "); the logs in it are not counted");
            return;
        }
        std::vector<fs::directory_entry> entries;
        for (; it != fs::directory_iterator(); it.increment(ec)) {
            if (ec) {
                warn(dir, "listing failed (" + ec.message() + "); the rest of it is skipped");
                break;
            }
            entries.push_back(*it);
        }
        std::sort(entries.begin(), entries.end());
        const bool campaignRoot = isCampaignRoot(dir);
        for (const auto& entry : entries) {
            const fs::path& p = entry.path();
            std::error_code sec;
            const bool isDir = entry.is_directory(sec); // follows symlinks
            if (campaignRoot && isCampaignRecord(entry, isDir) &&
                (isDir || entry.is_regular_file(sec))) {
                if (isDir)
                    countRecords(p, 0);
                else {
                    ++out.filesRead;
                    ++out.campaignFiles;
                }
                continue;
            }
            if (isDir && entry.is_symlink(sec) && !staysWithin(p, root)) {
                std::error_code wc;
                warn(p, "a symlink to " + fs::weakly_canonical(p, wc).string() +
                            ", outside the folder opened; not followed");
                continue;
            }
            if (isDir) {
                std::string why;
                auto t = parseTopology(p.filename().string(), &why);
                if (!why.empty())
                    warn(p, why + "; the logs in it are read as outside DLPerf's layout");
                walk(p, t ? t : topology, depth + 1);
                continue;
            }
            if (!entry.is_regular_file(sec)) {
                if (entry.is_symlink(sec) && !entry.exists(sec))
                    warn(p, "dangling symlink; skipped");
                else if (const char* what = notAFile(entry))
                    warn(p, std::string(what) + ", not a file; skipped (never read)");
                continue;
            }
            ++out.filesRead;
            const std::string name = p.filename().string();
            auto logName = parseLogName(name);
            if (!logName || !topology) {
                // Outside DLPerf's layout: the content decides.
                bool binary = false;
                std::string whyNot;
                NotReadLog notRead;
                if (auto log = sniffLogFile(p, display(p), root, sidecars, out.warnings, &binary,
                                            &whyNot, &notRead))
                    out.logs.push_back(std::move(*log));
                else {
                    ++out.otherFiles;
                    if (binary) ++out.binaryFiles;
                    if (whyNot.rfind(kFirstLineTooLong, 0) == 0)
                        out.warnings.push_back({display(p), 1, whyNot});
                    // Rate-like lines that nothing read: said, with the line to teach from.
                    if (notRead.line > 0) {
                        out.warnings.push_back({notRead.display, notRead.line, whyNot});
                        out.notRead.push_back(std::move(notRead));
                    }
                }
                continue;
            }
            LogFile log;
            log.path = p;
            log.display = display(p);
            // One model under its spellings (rn50, resnet50_v1.5 ...): cases meet across trees.
            log.key = RunKey{canonicalModel(logName->model), logName->precision,
                             logName->batchPerDevice, *topology, logName->repeat};
            out.logs.push_back(std::move(log));
        }
    }
};

} // namespace

std::string ScanResult::summaryLine() const {
    std::string s = "read " + std::to_string(filesRead) +
                    (filesRead == 1 ? " file: " : " files: ") + std::to_string(logs.size()) +
                    (logs.size() == 1 ? " throughput log" : " throughput logs");
    if (campaignFiles)
        s += ", " + std::to_string(campaignFiles) +
             " of the campaign's own records (journal, environment, monitor samples, workload)";
    if (otherFiles) {
        s += ", " + std::to_string(otherFiles) +
             (otherFiles == 1 ? " other file skipped" : " other files skipped");
        if (binaryFiles) s += " (" + std::to_string(binaryFiles) + " binary)";
    }
    return s;
}

namespace {

// The file's head as text, or why not (a document by its name, unreadable, empty, binary).
bool readTextHead(const fs::path& path, std::string& head, bool* binary, std::string* whyNot) {
    // Documents, source and configs quote log lines and print rates; they are not runs.
    if (isDocumentName(path.filename().string())) {
        // A results file (a trainer's train_results.json, a CSV table) holds figures, one each:
        // said as such, since "configuration" would not be true of it.
        std::string ext = path.extension().string();
        for (char& c : ext)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool results = ext == ".json" || ext == ".csv" || ext == ".tsv";
        if (whyNot)
            *whyNot = results ? "not a throughput log: a configuration or results file (" +
                                    path.extension().string() +
                                    ") is never read as a run, whatever figures it holds (a "
                                    "summary such as train_results.json is one figure, not the "
                                    "run's series of reports: read the run's log instead)"
                              : "not a throughput log: a document, source or configuration file (" +
                                    path.extension().string() +
                                    ") is never read as a run, whatever log lines it quotes";
        return false;
    }
    std::string error;
    if (!readHead(path, head, false, &error)) {
        if (whyNot) *whyNot = "cannot be read: " + error;
        return false;
    }
    if (head.empty()) {
        if (whyNot) *whyNot = "the file is empty";
        return false;
    }
    if (!looksLikeText(head)) {
        if (binary) *binary = true;
        if (whyNot) *whyNot = "a binary file, not a log";
        return false;
    }
    return true;
}

// How far past its head a text file is read for its first throughput lines.
constexpr std::size_t kScanPastHead = std::size_t{64} << 20;

// Issue 35 item 5: a log whose throughput lines start past its head (an MLPerf MXNet log's
// 2,800 lines of ":::MLL" preamble before its first Speed line). The rest, up to kScanPastHead
// bytes, is read a window of whole lines at a time and detected as the head is, kDetectLines
// lines at a time; the first format found is the file's, its reason saying where.
const LogFormat* detectPastHead(const fs::path& path, std::size_t from, std::string* why,
                                RateCandidate* candidate) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return nullptr;
    struct stat st {};
    const std::size_t size =
        ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
    const std::size_t stop = std::min(size, from + kScanPastHead);
    const LogFormat* found = nullptr;
    std::string window(kDetectBytes, '\0');
    std::int64_t linesBefore = 0;
    while (!found && from < stop) {
        const ssize_t n = ::pread(fd, window.data(), std::min(window.size(), stop - from),
                                  static_cast<off_t>(from));
        if (n <= 0) break;
        std::string_view text(window.data(), static_cast<std::size_t>(n));
        // Whole lines only: the window ends at its last line break (or holds one long line).
        if (const auto last = text.rfind('\n');
            last != std::string_view::npos && from + text.size() < stop)
            text = text.substr(0, last + 1);
        from += text.size();
        while (!found && !text.empty()) {
            std::size_t cut = 0;
            for (int line = 0; line < kDetectLines && cut < text.size(); ++line) {
                const auto nl = text.find('\n', cut);
                cut = nl == std::string_view::npos ? text.size() : nl + 1;
            }
            RateCandidate c;
            found = detectAnyLogFormat(text.substr(0, cut), why, &c);
            if (candidate && candidate->line == 0 && c.line > 0) {
                *candidate = c;
                candidate->line += linesBefore;
            }
            if (found && why)
                *why += " (its first throughput lines come after " + std::to_string(linesBefore) +
                        " lines past its first " + std::to_string(kDetectBytes >> 20) + " MiB)";
            linesBefore += static_cast<std::int64_t>(
                std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(cut), '\n'));
            text.remove_prefix(cut);
        }
    }
    ::close(fd);
    return found;
}

// Whether the lines past a 1 MiB head are worth reading for a log's first throughput lines: the
// head is a log's preamble (a quarter of its lines or more look like a log's: a clock, a log
// level, a rank tag, an MLPerf record), or one line runs past it. Prose, data and source are
// not: reading 64 MiB of them line by line costs many times what grep takes (bench/run_bench.py
// --text-only), for nothing.
bool scansPastHead(std::string_view head) {
    if (head.size() != kDetectBytes) return false;
    if (head.find('\n') == std::string_view::npos) return true;
    std::size_t lines = 0, loglike = 0;
    while (!head.empty() && lines < 20000) {
        const auto nl = head.find('\n');
        const std::string_view l = head.substr(0, std::min(nl, std::size_t{256}));
        ++lines;
        bool clock = false;
        for (std::size_t i = 0; !clock && i + 5 <= l.size(); ++i)
            clock = l[i + 2] == ':' && std::isdigit(static_cast<unsigned char>(l[i])) &&
                    std::isdigit(static_cast<unsigned char>(l[i + 1])) &&
                    std::isdigit(static_cast<unsigned char>(l[i + 3])) &&
                    std::isdigit(static_cast<unsigned char>(l[i + 4]));
        if (clock || l.rfind(":::", 0) == 0 || l.rfind('[', 0) == 0 ||
            l.find("INFO") != std::string_view::npos || l.find("WARN") != std::string_view::npos ||
            l.find("ERROR") != std::string_view::npos)
            ++loglike;
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
    }
    return loglike * 4 >= lines;
}

// The format of a text file from its head, read further where the head is its first 64 KiB
// only, then its tail (a closing summary), then past a long head.
const LogFormat* detectFileFormat(const fs::path& path, std::string& head, std::string& why,
                                  RateCandidate& candidate) {
    const LogFormat* format = detectAnyLogFormat(withoutQuotedBlocks(head), &why, &candidate);
    if (!format && head.size() == (std::size_t{1} << 16)) {
        readHead(path, head, true, nullptr);
        format = detectAnyLogFormat(withoutQuotedBlocks(head), &why, &candidate);
    }
    bool pastHead = false;
    if (!format && scansPastHead(head)) {
        RateCandidate later;
        format = detectPastHead(path, head.size(), &why, &later);
        pastHead = format != nullptr;
        if (candidate.line == 0 && later.line > 0) {
            candidate = later;
            candidate.line += static_cast<std::int64_t>(std::count(head.begin(), head.end(), '\n'));
        }
    }
    // A closing summary is at the end of a log longer than its head: the general reader looks
    // there too (only where no known family read the head).
    if ((!format || (isGeneralFormat(*format) && !pastHead)) &&
        head.size() >= (std::size_t{1} << 16)) {
        std::string tail;
        if (readTail(path, head.size(), tail) && holdsRateLine(tail)) {
            std::string tailWhy;
            RateCandidate tailCandidate;
            const LogFormat* withTail =
                detectGeneralFormat(withoutQuotedBlocks(head), &tailWhy, &tailCandidate, tail);
            if (withTail) {
                format = withTail;
                why = std::move(tailWhy);
            }
        }
    }
    return format;
}

} // namespace

std::optional<LogFile> sniffLogFile(const fs::path& path, const std::string& display,
                                    const fs::path& root, Sidecars& sidecars,
                                    std::vector<Warning>& warnings, bool* binary,
                                    std::string* whyNot, NotReadLog* notRead) {
    if (binary) *binary = false;
    std::string head;
    if (!readTextHead(path, head, binary, whyNot)) return std::nullopt;
    std::string why;
    RateCandidate candidate;
    const LogFormat* format = detectFileFormat(path, head, why, candidate);
    if (!format && head.size() == kDetectBytes && head.find('\n') == std::string::npos) {
        if (whyNot) *whyNot = firstLineTooLong(head);
        return std::nullopt;
    }
    if (!format) {
        if (whyNot)
            *whyNot = "not a throughput log: none of its first " + std::to_string(kDetectLines) +
                      " lines" +
                      (scansPastHead(head) ? " (nor up to " + std::to_string(kScanPastHead >> 20) +
                                                 " MiB past its first " +
                                                 std::to_string(kDetectBytes >> 20) + " MiB)"
                       : head.size() == kDetectBytes
                           ? " (its first " + std::to_string(kDetectBytes >> 20) +
                                 " MiB do not read as a log's, so no further)"
                           : std::string()) +
                      " is a throughput line of a known format (scaleview-cli formats lists "
                      "them)";
        if (candidate.line > 0 && whyNot) *whyNot = notReadText(candidate);
        if (candidate.line > 0 && notRead)
            *notRead = NotReadLog{display, path, candidate.line, candidate.text};
        return std::nullopt;
    }
    LogFile log;
    log.path = path;
    log.display = display;
    RunFacts facts = readRunFacts(head);
    // A user format's metadata patterns fill what the log's own dumps did not say.
    if (const UserFormat* user = userFormatOf(*format))
        mergeFacts(facts, userFormatRunFacts(*user, head));
    const bool ngcMxnet = format == &ngcMxnetFormat();
    const PathHints hints = readPathHints(path, root);
    // DLPerf's NGC MXNet runner passes the node's batch (per GPU x GPUs) to the script: the
    // per-GPU batch is the file name's, where the name states one.
    if (ngcMxnet && hints.batch) facts.batch.reset();
    const auto sidecar = sidecars.lookup(path, warnings);
    log.key = identifyRun(facts, hints, sidecar, display, warnings);
    log.key.format = std::string(format->id);
    log.detection = why;
    // Its ranks do not say over how many nodes it ran: only an <N>n<G>g folder (or a sidecar) does.
    if (ngcMxnet && !sidecar && !hints.nodes) unknownTopology(log.key);
    if (log.key.topology.ranks() <= 0) log.key.ownCase = ownCaseOf(display, hints);
    return log;
}

ScanResult scanLogFiles(const std::vector<fs::path>& files) {
    ScanResult result;
    for (const auto& file : files) {
        std::error_code ec;
        const auto status = fs::status(file, ec);
        if (ec || !fs::exists(status)) {
            result.warnings.push_back({file.string(), 0, "no such file"});
            continue;
        }
        if (fs::is_directory(status)) {
            ScanResult sub = scanLogDirectory(file);
            for (auto& l : sub.logs) {
                l.display = (file / l.display).lexically_normal().string();
                result.logs.push_back(std::move(l));
            }
            for (auto& w : sub.warnings)
                result.warnings.push_back(std::move(w));
            for (auto& n : sub.notRead) {
                n.display = (file / n.display).lexically_normal().string();
                result.notRead.push_back(std::move(n));
            }
            result.filesRead += sub.filesRead;
            result.otherFiles += sub.otherFiles;
            result.binaryFiles += sub.binaryFiles;
            result.campaignFiles += sub.campaignFiles;
            continue;
        }
        ++result.filesRead;
        const fs::path parent = file.parent_path();
        // One file of DLPerf's layout reads as DLPerf reads it.
        const auto logName = parseLogName(file.filename().string());
        const auto topology = parseTopology(parent.filename().string());
        if (logName && topology) {
            LogFile log;
            log.path = file;
            log.display = file.string();
            log.key = RunKey{canonicalModel(logName->model), logName->precision,
                             logName->batchPerDevice, *topology, logName->repeat};
            result.logs.push_back(std::move(log));
            continue;
        }
        Sidecars sidecars(parent.empty() ? fs::path(".") : parent);
        std::string whyNot;
        bool binary = false;
        NotReadLog notRead;
        if (auto log = sniffLogFile(file, file.string(), parent.empty() ? fs::path(".") : parent,
                                    sidecars, result.warnings, &binary, &whyNot, &notRead))
            result.logs.push_back(std::move(*log));
        else {
            ++result.otherFiles;
            if (binary) ++result.binaryFiles;
            result.warnings.push_back({file.string(), notRead.line, whyNot});
            if (notRead.line > 0) result.notRead.push_back(std::move(notRead));
        }
    }
    if (result.logs.empty() && !files.empty() && result.warnings.size() == files.size() &&
        files.size() == 1)
        result.error = result.warnings.front().text();
    return result;
}

ScanResult scanLogDirectory(const fs::path& rootIn) {
    ScanResult result;
    // "logs/1n8g/" names the folder 1n8g too.
    const fs::path root =
        rootIn.filename().empty() && rootIn.has_parent_path() ? rootIn.parent_path() : rootIn;
    std::error_code ec;
    const auto status = fs::status(root, ec);
    if (ec || !fs::exists(status)) {
        result.error = root.string() + ": no such directory";
        return result;
    }
    if (!fs::is_directory(status)) {
        if (fs::is_regular_file(status)) return scanLogFiles({root});
        result.error = root.string() + ": not a directory nor a regular file";
        return result;
    }
    fs::directory_iterator probe(root, ec);
    if (ec) {
        result.error = root.string() + ": cannot be read (" + ec.message() + ")";
        return result;
    }
    Walker walker{root, result, {}};
    walker.walk(root, parseTopology(root.filename().string()), 0);
    std::sort(result.logs.begin(), result.logs.end(),
              [](const LogFile& a, const LogFile& b) { return a.display < b.display; });
    return result;
}

} // namespace sv
