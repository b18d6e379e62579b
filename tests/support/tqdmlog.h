#pragma once
// A HuggingFace/tqdm progress log ("45%|████▌     | 90/200 [00:58<01:11,  1.55it/s]"), whose
// rate counts steps, not samples: the tests of the Teach draft and of "steps/s × batch" (core
// and the dialog) share it.

#include <cstdio>
#include <string>
#include <vector>

namespace sv::test {

struct TqdmLog {
    std::string text;
    std::vector<double> rates; // each progress line's it/s, in order
};

// steps progress lines after a 0 % line without a rate; headLines go first (the trainer's
// "Instantaneous batch size per device = 8", or nothing).
inline TqdmLog tqdmLog(int steps = 200, const std::string& headLines = {}) {
    TqdmLog out;
    out.text = "***** Running training *****\n  Num examples = 6400\n" + headLines + "  0%|" +
               std::string(10, ' ') + "| 0/" + std::to_string(steps) + " [00:00<?, ?it/s]\n";
    const std::string blocks[] = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b"};
    for (int step = 1; step <= steps; ++step) {
        const int pct = step * 100 / steps;
        std::string bar;
        for (int k = 0; k < pct / 10; ++k)
            bar += "\u2588";
        bar += blocks[(pct % 10) / 2];
        const int glyphs = pct / 10 + ((pct % 10) / 2 > 0 ? 1 : 0);
        bar += std::string(static_cast<std::size_t>(10 - glyphs), ' ');
        char rate[16];
        std::snprintf(rate, sizeof rate, "%5.2f", 1.5 + 0.01 * (step % 7));
        out.rates.push_back(std::stod(rate)); // the value as the log says it
        char line[200];
        std::snprintf(line, sizeof line, "%3d%%|%s| %d/%d [%02d:%02d<%02d:%02d, %sit/s]\n", pct,
                      bar.c_str(), step, steps, step / 90, (step * 2 / 3) % 60, (steps - step) / 90,
                      (steps - step) % 60, rate);
        out.text += line;
        if (step % 50 == 0) out.text += "{'loss': 2.31, 'learning_rate': 4.5e-05, 'epoch': 0.5}\n";
    }
    return out;
}

} // namespace sv::test
