#include "launcher/exec/bundlesignature.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <fstream>
#include <sstream>

namespace sv {
namespace {

struct Ran {
    int exitCode = -1;
    std::string out, err;
};

// ssh-keygen with arguments, input on its standard input; 30 s at most (a key with a
// passphrase would wait for one: the agent's or none).
Ran sshKeygen(const QStringList& arguments, const std::string& input = {}) {
    QProcess p;
    p.start(QStringLiteral("ssh-keygen"), arguments);
    Ran r;
    if (!p.waitForStarted(10000)) {
        r.err = "ssh-keygen could not be started (is OpenSSH's client installed?)";
        return r;
    }
    p.write(input.data(), static_cast<qint64>(input.size()));
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = "ssh-keygen did not finish within 30 s (a key that asks for its passphrase?)";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().trimmed().toStdString();
    r.err = p.readAllStandardError().trimmed().toStdString();
    return r;
}

std::string keyNamed(const std::string& text) {
    // "Good "scaleview-bundle" signature [for P] with ED25519 key SHA256:abc"
    const auto at = text.find(" with ");
    return at == std::string::npos ? std::string() : text.substr(at + 6);
}

bool writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

} // namespace

std::optional<std::string> signManifest(const std::string& manifest,
                                        const std::filesystem::path& keyFile, std::string* error) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("MANIFEST.json"));
    if (!dir.isValid() || !writeText(file, manifest)) {
        *error = "cannot write a temporary file to sign";
        return std::nullopt;
    }
    const Ran r = sshKeygen({QStringLiteral("-Y"), QStringLiteral("sign"), QStringLiteral("-f"),
                             QString::fromStdString(keyFile.string()), QStringLiteral("-n"),
                             QString::fromLatin1(kBundleSignatureNamespace), file});
    std::ifstream sig((file + QStringLiteral(".sig")).toStdString(), std::ios::binary);
    if (r.exitCode != 0 || !sig) {
        *error = "cannot sign with " + keyFile.string() + ": " + r.err;
        return std::nullopt;
    }
    std::ostringstream text;
    text << sig.rdbuf();
    return text.str();
}

SignatureCheck checkManifestSignature(const std::string& manifest, const std::string& signature,
                                      const std::filesystem::path& allowedSigners) {
    SignatureCheck out;
    QTemporaryDir dir;
    const QString sig = dir.filePath(QStringLiteral("MANIFEST.json.sig"));
    if (!dir.isValid() || !writeText(sig, signature)) {
        out.error = "cannot write a temporary file to check the signature";
        return out;
    }
    const QString ns = QString::fromLatin1(kBundleSignatureNamespace);
    const Ran check = sshKeygen({QStringLiteral("-Y"), QStringLiteral("check-novalidate"),
                                 QStringLiteral("-n"), ns, QStringLiteral("-s"), sig},
                                manifest);
    if (check.exitCode != 0) {
        out.error = "the signature does not match the manifest (" + check.err + check.out + ")";
        return out;
    }
    out.key = keyNamed(check.out.empty() ? check.err : check.out);
    if (allowedSigners.empty()) {
        out.good = true;
        return out;
    }
    const QString allowed = QString::fromStdString(allowedSigners.string());
    const Ran who = sshKeygen({QStringLiteral("-Y"), QStringLiteral("find-principals"),
                               QStringLiteral("-s"), sig, QStringLiteral("-f"), allowed});
    if (who.exitCode != 0 || who.out.empty()) {
        out.error =
            "signed by " + out.key + ", a key " + allowedSigners.string() + " does not name";
        return out;
    }
    out.principal = who.out.substr(0, who.out.find('\n'));
    const Ran verify =
        sshKeygen({QStringLiteral("-Y"), QStringLiteral("verify"), QStringLiteral("-f"), allowed,
                   QStringLiteral("-I"), QString::fromStdString(out.principal),
                   QStringLiteral("-n"), ns, QStringLiteral("-s"), sig},
                  manifest);
    if (verify.exitCode != 0) {
        out.error = "the signature of " + out.principal + " does not verify (" + verify.err + ")";
        return out;
    }
    out.good = true;
    return out;
}

} // namespace sv
