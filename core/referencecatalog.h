#pragma once
// Published throughput tables (resources/published-tables.json, compiled in) and the lookup of
// the reference figure for a measured case.

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
};

struct ReferenceTable {
    std::string id, title, source, framework, hardware;
    std::optional<std::string> precision;
    std::optional<int> batchPerDevice;
    std::vector<ReferenceSeries> series; // one for a plain table; several for a comparison
    std::map<std::string, double> speedup;
    // The series that stands for the table when none is named: the NGC MXNet one if present.
    const ReferenceSeries* primary() const;
};

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
    // Parses the JSON of published-tables.json; nullopt with *error on malformed input.
    static std::optional<ReferenceCatalog> fromJson(std::string_view json, std::string* error);

    const std::vector<ReferenceTable>& tables() const { return m_tables; }
    const ReferenceTable* find(std::string_view id) const;

    // The first table, in file order (the seed's NGC MXNet tables first), whose primary series
    // matches precision and batch and has a figure for the topology.
    std::optional<ReferenceValue> lookup(std::string_view precision, int batchPerDevice,
                                         std::string_view topology) const;
    // A named reference, "TABLE_ID" or "TABLE_ID:SERIES", at a topology.
    std::optional<ReferenceValue> lookup(std::string_view reference,
                                         std::string_view topology) const;
    // True when "TABLE_ID" or "TABLE_ID:SERIES" names something in the catalog.
    bool knows(std::string_view reference) const;

  private:
    std::vector<ReferenceTable> m_tables;
};

} // namespace sv
