#pragma once
// Published throughput tables (resources/published-tables.json, compiled in) and the lookup of
// the reference figure for a measured case.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

struct ReferenceSeries {
    std::string name;
    std::optional<std::string> precision; // the table's, or read from the series name
    std::optional<int> batchPerDevice;
    std::map<std::string, double> throughput; // by topology name, images/s
    // Each run's figure, where the source printed them (the seed's FP32 table): a sample to
    // compare with, not only a median.
    std::map<std::string, std::vector<double>> repeats;
};

struct ReferenceTable {
    std::string id, title, source, framework, hardware;
    std::string model = "r50"; // DLPerf's tables are all ResNet-50 v1.5
    std::optional<std::string> precision;
    std::optional<int> batchPerDevice;
    std::vector<ReferenceSeries> series; // one for a plain table; several for a comparison
    std::map<std::string, double> speedup;
    // "time" or "speed": the DLPerf method the figures were computed by; empty when the source
    // does not say. A measurement is compared with the table by this method.
    std::string method;
    std::string methodNote;
    std::string origin; // the file a user's table was read from; empty for the built-in ones
    // The series that stands for the table when none is named: the NGC MXNet one if present.
    const ReferenceSeries* primary() const;
};

// One name per model: DLPerf's runners name ResNet-50 r50, rn50 or resnet50, and BERT bert,
// bert_base or bert-base-adam-training.
std::string modelFamily(std::string_view model);

struct ReferenceValue {
    const ReferenceTable* table = nullptr;
    const ReferenceSeries* series = nullptr;
    double throughput = 0.0;
    std::string label() const; // "dlperf-ngc-mxnet-fp32-bs128" or "id: series"
};

class ReferenceCatalog {
  public:
    // The tables shipped with ScaleView.
    static const ReferenceCatalog& builtin();
    // Parses the JSON of published-tables.json; nullopt with *error on malformed input, naming
    // the table, the field and the reason ("tables[2] (my-id): throughput.1n1g: not a positive
    // number"): a document is loaded whole or not at all.
    static std::optional<ReferenceCatalog> fromJson(std::string_view json, std::string* error);

    // Adds the tables of a published-tables JSON file (a user's own or imported table): all of
    // them, or none with *error naming the file, the table, the field and the reason (also when
    // an id is already in the catalog). References into the catalog are invalidated.
    bool addFile(const std::filesystem::path& file, std::string* error);
    // The built-in tables, then every *.json in dir (name order) that addFile takes; each file
    // refused is one line in *refused. A missing dir is no error.
    static ReferenceCatalog withUserTables(const std::filesystem::path& dir,
                                           std::vector<std::string>* refused);

    const std::vector<ReferenceTable>& tables() const { return m_tables; }
    const ReferenceTable* find(std::string_view id) const;

    // The reference for a case: the first table, in file order (the seed's NGC MXNet tables
    // first, each framework's own DLPerf table before the report's comparisons), whose primary
    // series matches precision and batch. With a model, only tables of that model ("r50",
    // "rn50" and "resnet50" are one; so are BERT's names); with a framework (a log format's,
    // "NGC TensorFlow 1"), only its series ("NGC TensorFlow 1.15.2 ...") stand for a table.
    // The throughput of the value returned is 0: it names the table and series.
    std::optional<ReferenceValue> match(std::string_view precision, int batchPerDevice,
                                        std::string_view model = {},
                                        std::string_view framework = {}) const;
    // Whether a series of a table stands for a framework (a log format's, "NGC TensorFlow 1"):
    // the table's own framework, or in a comparison of frameworks the series named after it;
    // a user's one-series table that names none stands for any. Any series, with no framework.
    static bool standsFor(const ReferenceTable& table, const ReferenceSeries& series,
                          std::string_view framework);
    // match()'s figure at the topology; none where that table has none (never another table's).
    std::optional<ReferenceValue> lookup(std::string_view precision, int batchPerDevice,
                                         std::string_view topology, std::string_view model = {},
                                         std::string_view framework = {}) const;
    // A named reference, "TABLE_ID" or "TABLE_ID:SERIES", at a topology.
    std::optional<ReferenceValue> lookup(std::string_view reference,
                                         std::string_view topology) const;
    // True when "TABLE_ID" or "TABLE_ID:SERIES" names something in the catalog.
    bool knows(std::string_view reference) const;

  private:
    std::vector<ReferenceTable> m_tables;
};

} // namespace sv
