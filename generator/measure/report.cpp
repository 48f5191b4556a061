#include "generator/measure/report.h"

#include <fmt/format.h>

#include <cmath>

#include "generator/support/json.h"

namespace splgen::measure {

double speed_ratio(const BenchRow &row, int i) { return row.ns[std::size_t(i)] / row.ns[0]; }

std::vector<int> baselines(const BenchResult &result) {
  std::vector<int> out;
  if (int d = result.index("splgen_default"); d > 0) out.push_back(d);
  if (int d = result.index("splgen_sync"); d > 0) out.push_back(d);  // streamed: the engines compared
  if (int d = result.index("splgen_contiguous"); d > 0) out.push_back(d);  // a layout against none
  for (std::size_t i = 0; i < result.implementations.size(); ++i)
    if (!result.implementations[i].splgen) out.push_back(int(i));
  return out;
}

int one_thread_baseline(const BenchResult &result) {
  if (result.implementations.empty() || result.implementations.front().threads <= 1) return -1;
  for (std::size_t i = 1; i < result.implementations.size(); ++i)
    if (result.implementations[i].splgen && result.implementations[i].threads == 1) return int(i);
  return -1;
}

namespace {

// t(1 thread) / t(P threads) of splgen's kernel, and that over P.
double speedup(const BenchResult &r, const BenchRow &row) {
  int one = one_thread_baseline(r);
  return one < 0 ? std::nan("") : row.ns[std::size_t(one)] / row.ns[0];
}
double efficiency(const BenchResult &r, const BenchRow &row) { return speedup(r, row) / r.implementations.front().threads; }

// A number for a table cell, or "-" where there is none.
std::string cell(double v, const char *format) {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : std::string("-");
}

std::string csv_field(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string(); }

std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string("null"); }

// {"id": value, ...} over the implementations picked by `which`.
template <class Value>
std::string json_object(const BenchResult &result, const std::vector<int> &which, Value value) {
  std::string out = "{";
  for (std::size_t j = 0; j < which.size(); ++j)
    out += fmt::format("{}{}: {}", j ? ", " : "", support::json_quote(result.implementations[std::size_t(which[j])].id),
                       json_number(value(which[j])));
  return out + "}";
}

}  // namespace

std::string format_table(const BenchResult &r) {
  const std::vector<int> base = baselines(r);
  const std::string &splgen = r.implementations.front().label;
  const bool radix2 = r.index("radix2_loop") >= 0;  // WHT: FFTW has none
  std::string out = fmt::format("{} {}, {}: {} vs {} on {}; pseudo-Gflop/s, medians\n", r.meta_value("direction"),
                                r.meta_value("spec"), r.meta_value("precision"), splgen,
                                radix2 ? "a radix-2 loop (FFTW has no WHT)" : r.meta_value("fftw_version"),
                                r.meta_value("cpu"));
  std::vector<std::string> headers = {"n"};
  for (const Implementation &impl : r.implementations) headers.push_back(impl.label);
  for (int i : base) {  // "vs MEASURE", "vs default", "vs radix-2 loop"
    const std::string &label = r.implementations[std::size_t(i)].label;
    headers.push_back("vs " + label.substr(label.rfind("FFTW_", 0) == 0 ? 5 : label.rfind("splgen ", 0) == 0 ? 7 : 0));
  }
  const bool threaded = one_thread_baseline(r) >= 0;
  if (threaded) headers.insert(headers.end(), {"speed-up", "efficiency"});
  bool counted = false;  // WHT: additions over the bound n log2 n
  for (const BenchRow &row : r.rows) counted = counted || std::isfinite(row.adds_over_bound);
  if (counted) headers.push_back("adds/nlog2n");
  headers.push_back("error");
  std::vector<std::size_t> widths;
  for (const std::string &h : headers) widths.push_back(std::max<std::size_t>(h.size(), 8));
  auto line = [&](const std::vector<std::string> &cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) text += fmt::format("{}{:>{}}", c ? "  " : "", cells[c], widths[c]);
    return text + "\n";
  };
  out += line(headers);
  for (const BenchRow &row : r.rows) {
    std::vector<std::string> cells = {fmt::format("{}", row.n)};
    for (double ns : row.ns) cells.push_back(cell(pseudo_gflops(row.n, ns), "{:.2f}"));
    for (int i : base) cells.push_back(cell(speed_ratio(row, i), "{:.2f}x"));
    if (threaded) cells.insert(cells.end(), {cell(speedup(r, row), "{:.2f}x"), cell(efficiency(r, row), "{:.2f}")});
    if (counted) cells.push_back(cell(row.adds_over_bound, "{:.3f}"));
    cells.push_back(cell(row.error[0], "{:.1e}"));
    out += line(cells);
  }
  return out;
}

std::string format_csv(const BenchResult &r) {
  const std::vector<int> base = baselines(r);
  std::string out = "n,spec,repetitions";
  for (const Implementation &impl : r.implementations)
    out += fmt::format(",{0}_ns,{0}_gflops,{0}_error", impl.id);
  for (int i : base) (out += ",ratio_vs_") += r.implementations[std::size_t(i)].id;
  const bool threaded = one_thread_baseline(r) >= 0;
  if (threaded) out += ",speedup,efficiency";
  for (const auto &[key, value] : r.meta)
    if (key != "spec") (out += ',') += key;  // each record has its own spec
  out += "\n";
  for (const BenchRow &row : r.rows) {
    out += fmt::format("{},{},{}", row.n, csv_field(row.spec), row.repetitions);
    for (std::size_t i = 0; i < row.ns.size(); ++i)
      out += fmt::format(",{},{},{}", csv_number(row.ns[i]), csv_number(pseudo_gflops(row.n, row.ns[i])),
                         csv_number(row.error[i]));
    for (int i : base) (out += ',') += csv_number(speed_ratio(row, i));
    if (threaded) out += "," + csv_number(speedup(r, row)) + "," + csv_number(efficiency(r, row));
    for (const auto &[key, value] : r.meta)
      if (key != "spec") (out += ',') += csv_field(value);
    out += "\n";
  }
  return out;
}

std::string format_json(const BenchResult &r) {
  std::vector<int> all;
  for (std::size_t i = 0; i < r.implementations.size(); ++i) all.push_back(int(i));
  std::string out = "{\n  \"meta\": {";
  for (std::size_t m = 0; m < r.meta.size(); ++m)
    out += fmt::format("{}\n    {}: {}", m ? "," : "", support::json_quote(r.meta[m].first), support::json_quote(r.meta[m].second));
  out += "\n  },\n  \"implementations\": [";
  for (std::size_t i = 0; i < r.implementations.size(); ++i)
    out += fmt::format("{}\n    {{\"id\": {}, \"label\": {}}}", i ? "," : "", support::json_quote(r.implementations[i].id),
                       support::json_quote(r.implementations[i].label));
  out += "\n  ],\n  \"rows\": [";
  for (std::size_t k = 0; k < r.rows.size(); ++k) {
    const BenchRow &row = r.rows[k];
    out += fmt::format("{}\n    {{\"n\": {}, \"spec\": {}, \"repetitions\": {},", k ? "," : "", row.n,
                       support::json_quote(row.spec), row.repetitions);
    out += "\n     \"ns\": " + json_object(r, all, [&](int i) { return row.ns[std::size_t(i)]; }) + ",";
    out += "\n     \"gflops\": " +
           json_object(r, all, [&](int i) { return pseudo_gflops(row.n, row.ns[std::size_t(i)]); }) + ",";
    out += "\n     \"error\": " + json_object(r, all, [&](int i) { return row.error[std::size_t(i)]; }) + ",";
    out += "\n     \"ratio\": " + json_object(r, baselines(r), [&](int i) { return speed_ratio(row, i); });
    if (one_thread_baseline(r) >= 0)
      out += fmt::format(",\n     \"speedup\": {}, \"efficiency\": {}", json_number(speedup(r, row)),
                         json_number(efficiency(r, row)));
    out += "}";
  }
  return out + "\n  ]\n}\n";
}

}  // namespace splgen::measure
