// scaleview-cli bundle and verify (issue 39) as a user runs them: exit codes and what is said.

#include "core/bundle/bundlewriter.h"
#include "tests/support/files.h"
#include "tests/support/gunzip.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::cli;
using test::TempDir;

std::string bytesOf(const fs::path& p) {
    return test::readWhole(p);
}

TEST(BundleCli, BundleVerifyTamperAndRefuse) {
    TempDir dir;
    test::writeSteadyRuns(dir / "camp", {{"1n1g", 1}, {"1n2g", 2}}, 60, 3);
    const std::string bundle = (dir / "camp.svbundle").string();
    auto made = cli(
        {"bundle", (dir / "camp").string(), "-o", bundle, "--warmup", "10", "--iterations", "60"});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    EXPECT_NE(made.err.find("bundled 7 files"), std::string::npos) << made.err;

    // Never over a file already there.
    const std::string before = bytesOf(bundle);
    auto again = cli({"bundle", (dir / "camp").string(), "-o", bundle});
    EXPECT_EQ(again.exitCode, 2);
    EXPECT_NE(again.err.find("exists"), std::string::npos) << again.err;
    EXPECT_EQ(bytesOf(bundle), before);

    auto ok = cli({"verify", bundle});
    EXPECT_EQ(ok.exitCode, 0) << ok.out << ok.err;
    EXPECT_NE(ok.out.find(": verified: 7 files match the manifest"), std::string::npos) << ok.out;

    // One byte of a log, inside an intact gzip stream: named, not verified.
    std::string tar = sv::test::gunzip(before);
    const auto at = tar.find("Speed: 128.0");
    ASSERT_NE(at, std::string::npos);
    tar[at + 7] = '9';
    const std::string tampered = (dir / "tampered.svbundle").string();
    {
        gzFile out = gzopen(tampered.c_str(), "wb");
        gzwrite(out, tar.data(), static_cast<unsigned>(tar.size()));
        gzclose(out);
    }
    // gzopen writes its own header (a time, an OS): refused as no bundle ScaleView wrote.
    auto refused = cli({"verify", tampered});
    EXPECT_EQ(refused.exitCode, 2) << refused.out << refused.err;
    EXPECT_NE(refused.err.find("refused: gzip header byte"), std::string::npos) << refused.err;

    // Truncated: refused with the reason.
    std::ofstream(tampered, std::ios::binary | std::ios::trunc)
        << before.substr(0, before.size() / 2);
    auto cut = cli({"verify", tampered});
    EXPECT_EQ(cut.exitCode, 2);
    EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
}

// The docs' check by hand: tar xzf, then sha256sum -c, with the standard tools alone.
TEST(BundleCli, TarAndSha256sumCheckItByHand) {
    TempDir dir;
    test::writeSteadyRuns(dir / "camp", {{"1n1g", 1}}, 60, 3);
    const std::string bundle = (dir / "camp.svbundle").string();
    ASSERT_EQ(cli({"bundle", (dir / "camp").string(), "-o", bundle, "--warmup", "10",
                   "--iterations", "60"})
                  .exitCode,
              0);
    fs::create_directory(dir / "x");
    auto untar = test::runProcess({"/usr/bin/tar", "xzf", bundle, "-C", (dir / "x").string()});
    ASSERT_EQ(untar.exitCode, 0) << untar.err;
    const std::string top = (dir / "x" / "svbundle").string();
    // The folder is an argument, never part of the script.
    const std::vector<std::string> check = {
        "/bin/sh", "-c", "cd \"$1\" && sha256sum -c --quiet SHA256SUMS", "sh", top};
    auto good = test::runProcess(check);
    EXPECT_EQ(good.exitCode, 0) << good.out << good.err;
    const fs::path log = dir / "x" / "svbundle" / "campaign" / "1n1g" / "r50_b64_fp32_1.log";
    std::string text = test::readWhole(log);
    text[text.find("Speed: 128.0") + 8] = '9';
    test::writeFile(log, text);
    auto bad = test::runProcess(check);
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.out.find("campaign/1n1g/r50_b64_fp32_1.log: FAILED"), std::string::npos)
        << bad.out;
}

// Signing with the user's SSH key: the key named on verify; the signer named by an
// allowed_signers file; a key it does not name, a signature of something else and a missing
// signature where one is required, each not verified.
TEST(BundleCli, SignedWithAnSshKeyAndChecked) {
    TempDir dir;
    for (const std::string who : {"alice", "mallory"}) {
        auto made = test::runProcess({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                      who + "@site-a", "-f", (dir / who).string()});
        ASSERT_EQ(made.exitCode, 0) << made.err;
        test::writeFile(dir / (who + ".allowed"), who + "@site-a namespaces=\"scaleview-bundle\" " +
                                                      test::readWhole(dir / (who + ".pub")));
    }
    test::writeSteadyRuns(dir / "camp", {{"1n1g", 1}}, 60, 3);
    const std::string bundle = (dir / "signed.svbundle").string();
    auto made = cli({"bundle", (dir / "camp").string(), "-o", bundle, "--warmup", "10",
                     "--iterations", "60", "--sign", (dir / "alice").string()});
    ASSERT_EQ(made.exitCode, 0) << made.err;

    auto any = cli({"verify", bundle});
    EXPECT_EQ(any.exitCode, 0) << any.out << any.err;
    EXPECT_NE(any.out.find("signed with ED25519 key SHA256:"), std::string::npos) << any.out;
    auto trusted = cli({"verify", bundle, "--allowed-signers", (dir / "alice.allowed").string()});
    EXPECT_EQ(trusted.exitCode, 0) << trusted.out << trusted.err;
    EXPECT_NE(trusted.out.find("(alice@site-a)"), std::string::npos) << trusted.out;
    auto stranger =
        cli({"verify", bundle, "--allowed-signers", (dir / "mallory.allowed").string()});
    EXPECT_EQ(stranger.exitCode, 1) << stranger.out;
    EXPECT_NE(stranger.out.find("MANIFEST.json.sig: signed by ED25519 key SHA256:"),
              std::string::npos)
        << stranger.out;

    // A signature of another text, packed as this manifest's.
    test::writeFile(dir / "other.txt", "not the manifest\n");
    ASSERT_EQ(test::runProcess({"/usr/bin/ssh-keygen", "-Y", "sign", "-f", (dir / "alice").string(),
                                "-n", "scaleview-bundle", (dir / "other.txt").string()})
                  .exitCode,
              0);
    BundleRequest r;
    r.campaignDir = dir / "camp";
    r.load.measure.warmup = 10;
    r.load.measure.iterations = 60;
    r.scaleviewVersion = "test";
    const std::string otherSig = test::readWhole(dir / "other.txt.sig");
    r.sign = [otherSig](const std::string&, std::string*) { return std::optional(otherSig); };
    const std::string forged = (dir / "forged.svbundle").string();
    std::ofstream(forged, std::ios::binary) << buildBundle(r).bytes;
    auto bad = cli({"verify", forged});
    EXPECT_EQ(bad.exitCode, 1) << bad.out;
    EXPECT_NE(bad.out.find("MANIFEST.json.sig: the signature does not match the manifest"),
              std::string::npos)
        << bad.out;

    // Unsigned, where a signature is required.
    const std::string plain = (dir / "plain.svbundle").string();
    ASSERT_EQ(cli({"bundle", (dir / "camp").string(), "-o", plain}).exitCode, 0);
    auto unsigned_ = cli({"verify", plain, "--allowed-signers", (dir / "alice.allowed").string()});
    EXPECT_EQ(unsigned_.exitCode, 1);
    EXPECT_NE(unsigned_.out.find("not signed, and --allowed-signers asks for a signature"),
              std::string::npos)
        << unsigned_.out;
}

} // namespace
} // namespace sv
