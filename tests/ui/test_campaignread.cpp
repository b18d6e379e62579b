// Reliability §17 for the Run panel: opening a campaign (and reverting the form to it) reads
// campaign.json and the journal on a worker thread. The journal here is a FIFO that delivers
// nothing until the test lets it: a read on the GUI thread would stall the window until then,
// so the panel must come back at once, say "Reading campaign…" with the form disabled, and keep
// the event loop ticking; once the journal arrives, the campaign shows.

#include "tests/ui/uifixture.h"

#include "launcher/campaign/journal.h"
#include "ui/run/campaignform.h"
#include "ui/run/runpanel.h"

#include <QElapsedTimer>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sv;
using namespace sv::test;

namespace {

// How long the FIFO holds the reader at most when the test does not let it go: what a
// synchronous read would stall the window for.
constexpr auto kHold = std::chrono::seconds(5);

// A journal.jsonl that is a FIFO: whoever opens it to read waits until write() is let go (or
// kHold has passed), then gets `bytes` and the end of the file.
class HeldJournal {
  public:
    HeldJournal(std::string path, std::string bytes)
        : m_path(std::move(path)), m_bytes(std::move(bytes)) {
        std::filesystem::remove(m_path);
        EXPECT_EQ(::mkfifo(m_path.c_str(), 0644), 0) << std::strerror(errno);
        m_writer = std::thread([this] {
            const auto until = std::chrono::steady_clock::now() + kHold;
            while (!m_release && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            // No reader yet (ENXIO): try again until one comes, for a bounded time.
            int fd = -1;
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while ((fd = ::open(m_path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0 &&
                   errno == ENXIO && std::chrono::steady_clock::now() < give_up)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (fd < 0) return;
            ::fcntl(fd, F_SETFL, 0); // blocking writes from here on
            const ssize_t n = ::write(fd, m_bytes.data(), m_bytes.size());
            (void)n;
            ::close(fd);
        });
    }
    ~HeldJournal() {
        release();
        m_writer.join();
    }
    void release() { m_release = true; }

  private:
    std::string m_path, m_bytes;
    std::atomic<bool> m_release{false};
    std::thread m_writer;
};

// A campaign of two runs, the first cancelled: its journal's bytes, written aside.
std::string journalBytes(const std::string& scratch) {
    launcher::Journal journal(scratch);
    std::string error;
    const std::string id = "bz8/1n1g/r50_b8_fp32_1";
    EXPECT_TRUE(journal.appendStart(id, "svTEST", {{"true"}}, {}, "/dev/null", &error)) << error;
    launcher::RunEnd end;
    end.state = launcher::RunState::Cancelled;
    EXPECT_TRUE(journal.appendEnd(id, "svTEST", "/dev/null", end, &error)) << error;
    return readWhole(scratch);
}

// The longest gap between the ticks of a 5 ms timer since it started: how long the event loop
// did not answer.
struct GapProbe {
    QTimer timer;
    QElapsedTimer sinceTick;
    qint64 maxGap = 0;
    int ticks = 0;
    GapProbe() {
        timer.setInterval(5);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            maxGap = std::max(maxGap, sinceTick.restart());
            ++ticks;
        });
        sinceTick.start();
        timer.start();
    }
};

} // namespace

TEST(CampaignRead, AJournalThatDoesNotArriveNeverStallsTheWindowAndTheCampaignShowsOnceItDoes) {
    AppWindow w;
    ui::RunPanel* panel = w.window.runPanel();
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("campaign")).toStdString();
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.topologies = {{1, 1}};
    c.batchSizes = {8};
    c.repeats = 2;
    c.iterations = 40;
    c.outputDir = out;
    std::filesystem::create_directories(out);
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, out + "/campaign.json", &error)) << error;
    const std::string bytes =
        journalBytes(dir.filePath(QStringLiteral("scratch.jsonl")).toStdString());

    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    {
        HeldJournal held(out + "/journal.jsonl", bytes);
        GapProbe probe;
        QElapsedTimer clock;
        clock.start();
        panel->openCampaign(QString::fromStdString(out));
        EXPECT_LT(clock.elapsed(), 1000) << "openCampaign waited for the journal";
        EXPECT_TRUE(panel->isReading());
        EXPECT_TRUE(panel->bannerText().startsWith(QLatin1String("Reading campaign")))
            << panel->bannerText().toStdString();
        EXPECT_FALSE(panel->form()->isEnabled());
        EXPECT_FALSE(panel->runButton()->isEnabled());
        EXPECT_FALSE(panel->resumeButton()->isEnabled());
        EXPECT_FALSE(panel->preflightButton()->isEnabled());
        // A second of the window answering while the journal is held.
        ASSERT_TRUE(waitUntil([&] { return clock.elapsed() > 1000; }, 3000));
        EXPECT_GT(probe.ticks, 20);
        EXPECT_LT(probe.maxGap, 500) << "the event loop stalled while the journal was held";
        EXPECT_EQ(read.count(), 0);
        EXPECT_TRUE(panel->isReading());
        held.release();
        ASSERT_TRUE(waitUntil([&] { return read.count() > 0; }, 10000));
    }
    EXPECT_TRUE(read.takeFirst().at(1).toBool());
    EXPECT_FALSE(panel->isReading());
    EXPECT_TRUE(panel->form()->isEnabled());
    EXPECT_TRUE(panel->resumeButton()->isEnabled()); // one run cancelled, one never run
    EXPECT_TRUE(panel->bannerText().contains(QLatin1String("Resume runs the other 2")))
        << panel->bannerText().toStdString();
    EXPECT_EQ(panel->form()->iterations()->value(), 40);

    // Revert reads the directory again, off the GUI thread as well.
    panel->form()->iterations()->setValue(7);
    {
        HeldJournal held(out + "/journal.jsonl", bytes);
        GapProbe probe;
        QElapsedTimer clock;
        clock.start();
        panel->revertForm();
        EXPECT_LT(clock.elapsed(), 1000) << "Revert waited for the journal";
        EXPECT_TRUE(panel->isReading());
        EXPECT_FALSE(panel->form()->isEnabled());
        ASSERT_TRUE(waitUntil([&] { return clock.elapsed() > 500; }, 3000));
        EXPECT_LT(probe.maxGap, 500);
        EXPECT_EQ(panel->form()->iterations()->value(), 7); // not reverted before it is read
        held.release();
        ASSERT_TRUE(waitUntil([&] { return !panel->isReading(); }, 10000));
    }
    EXPECT_EQ(panel->form()->iterations()->value(), 40);
    EXPECT_TRUE(panel->form()->isEnabled());
}
