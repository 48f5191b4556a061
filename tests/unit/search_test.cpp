// The search library (generator/search/, docs/search.md): durations, JSON, the search space,
// plans in the pipeline, wisdom files, and small searches that must find correct kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>
#include <random>
#include <string>
#include <vector>

#include "generator/ir/dense.h"
#include "generator/ir/print.h"
#include "generator/driver/pipeline.h"
#include "generator/measure/reference.h"
#include "generator/parse/formula_parser.h"
#include "generator/search/duration.h"
#include "tests/support/quick_search.h"
#include "generator/support/json.h"
#include "generator/search/search.h"
#include "generator/search/space.h"
#include "generator/search/wisdom.h"
#include "tests/support/kernel_loader.h"

namespace splgen::search {

using support::Json;
using support::JsonError;
using support::parse_json;
namespace {

TEST(SearchDuration, ParsesUnits) {
  EXPECT_DOUBLE_EQ(parse_duration("60s"), 60);
  EXPECT_DOUBLE_EQ(parse_duration("2m"), 120);
  EXPECT_DOUBLE_EQ(parse_duration("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(parse_duration("1m30s"), 90);
  EXPECT_DOUBLE_EQ(parse_duration("1h"), 3600);
  EXPECT_DOUBLE_EQ(parse_duration("7"), 7);
  EXPECT_DOUBLE_EQ(parse_duration("1.5s"), 1.5);
  for (const char *bad : {"", "s", "abc", "5x", "-3s", "0s", "5 3"}) EXPECT_THROW(parse_duration(bad), DurationError) << bad;
}

TEST(SearchJson, RoundTripsAndKeepsOrder) {
  Json o = Json::object();
  o.set("b", 1.5);
  o.set("a", "x\"y\n");
  Json arr = Json::array();
  arr.push_back(Json());
  arr.push_back(true);
  arr.push_back(1e-300);
  o.set("list", arr);
  std::string text = o.dump();
  Json back = parse_json(text);
  EXPECT_EQ(back.dump(), text);
  ASSERT_TRUE(back.find("a"));
  EXPECT_EQ(back.find("a")->as_string(), "x\"y\n");
  EXPECT_EQ(back.members().front().first, "b");
  EXPECT_EQ(back.find("list")->items()[2].as_number(), 1e-300);
}

TEST(SearchJson, SyntaxErrorsHaveLineAndColumn) {
  try {
    parse_json("{\n  \"a\": 1\n  \"b\": 2\n}");
    FAIL() << "no error";
  } catch (const JsonError &e) {
    EXPECT_EQ(e.line, 3);
    EXPECT_EQ(e.column, 3);
    EXPECT_EQ(std::string(e.what()), "3:3: expected ',' or '}'");
  }
  EXPECT_THROW(parse_json(""), JsonError);
  EXPECT_THROW(parse_json("[1,]"), JsonError);
  EXPECT_THROW(parse_json("{\"a\": tru}"), JsonError);
  EXPECT_THROW(parse_json("\"abc"), JsonError);
  EXPECT_THROW(parse_json("1 2"), JsonError);
}

TEST(SearchSpace, SplitsOfDft16) {
  std::vector<Split> s = splits(make_dft(16), expand::breakdown_rules(expand::shipped_rules()));
  std::vector<std::string> labels;
  for (const Split &x : s) labels.push_back(x.label);
  for (const char *want : {"dit(2,8)", "dit(4,4)", "dit(8,2)", "dif(2,8)", "dif(4,4)", "dif(8,2)"})
    EXPECT_NE(std::find(labels.begin(), labels.end(), want), labels.end()) << want;
  for (const Split &x : s) {
    // Every split is the DFT, whatever its children become.
    EXPECT_LT(max_abs_difference(to_dense(x.rhs), to_dense(make_dft(16))), 1e-9) << x.label;
    std::vector<Spl> kids;
    for (const Spl &c : x.children) kids.push_back(c);
    EXPECT_TRUE(equal(substitute(x.rhs, kids), x.rhs));
  }
  // Good-Thomas and Rader where they apply; no split of a prime without Rader's child.
  std::vector<Split> s15 = splits(make_dft(15), expand::breakdown_rules(expand::shipped_rules()));
  EXPECT_TRUE(std::any_of(s15.begin(), s15.end(), [](const Split &x) { return x.rule == "dft_good_thomas"; }));
  std::vector<Split> s7 = splits(make_dft(7), expand::breakdown_rules(expand::shipped_rules()));
  ASSERT_FALSE(s7.empty());
  EXPECT_EQ(s7[0].rule, "dft_rader");
  EXPECT_EQ(width_choices(Isa::Scalar, Precision::Double), std::vector<int>{0});
  EXPECT_EQ(width_choices(Isa::Avx2, Precision::Double), (std::vector<int>{0, 2}));
}

TEST(SearchSpace, SmpPacketsOnlyWhereThreadsRun) {
  EXPECT_EQ(packet_choices(1, 1 << 16, Precision::Double), std::vector<int>{0});
  EXPECT_EQ(packet_choices(2, 1 << 12, Precision::Double), std::vector<int>{0});  // one thread anyway
  EXPECT_EQ(packet_choices(2, 1 << 14, Precision::Double), (std::vector<int>{0, 8, 16}));  // 2 and 4 lines
  EXPECT_EQ(packet_choices(4, 1 << 14, Precision::Float), (std::vector<int>{0, 16, 32}));
  std::vector<TargetChoice> c = target_choices(Isa::Avx2, Precision::Double, 2, 1 << 14);
  ASSERT_EQ(c.size(), 6u);  // {widest, 2} x {line, 2 lines, 4 lines}
  EXPECT_EQ(c.front(), TargetChoice{});
  EXPECT_EQ(c.back(), (TargetChoice{2, 16}));
  EXPECT_EQ(target_choices(Isa::Avx2, Precision::Double, 1, 1 << 14).size(), 2u);
}

// With --threads, a plan's smp_packet is mu of the smp tag the kernel is built from; the plan
// stays the same transform (proved as wisdom entries are) and its stages stay parallel.
TEST(SearchPlan, SmpPacketIsMuOfTheTag) {
  driver::GenOptions g;
  g.isa = Isa::Avx2;
  g.threads = 2;
  const std::string spec = "DFT(16384)";
  Plan p = default_plan(spec, g);
  EXPECT_NE(print(p.formula).find("smp(2,4)["), std::string::npos);  // one cache line of doubles
  p.is_default = false;  // through the formula text, tag included, as from wisdom
  p.formula = parse::parse_formula(print(p.formula));
  p.smp_packet = 16;
  driver::Compilation c = driver::start(spec, with_plan(g, p));
  driver::run_until(c, driver::Stage::Loops);
  EXPECT_NE(print(c.expansion.formula).find("smp(2,16)["), std::string::npos) << print(c.expansion.formula);
  EXPECT_EQ(c.program.loops.workers, 2);
  EXPECT_EQ(plan_mismatch(parse::parse_formula(spec), p, g), "");
  EXPECT_EQ(describe_target(2, 16), "w=2 mu=16");
  EXPECT_EQ(describe_target(0, 16), "mu=16");
  EXPECT_EQ(describe_target(0, 0), "");
}

TEST(SearchPlan, DefaultPlanGivesTheDefaultBytes) {
  for (Isa isa : {Isa::Scalar, Isa::Avx2}) {
    for (const char *spec : {"DFT(16)", "DFT(64)", "DFT(15)"}) {
      driver::GenOptions g;
      g.isa = isa;
      driver::PipelineResult r = driver::run_pipeline(spec, g);
      Plan p = default_plan(spec, g);
      Plan as_text = p;
      as_text.is_default = false;  // through the formula text, as from wisdom
      as_text.formula = parse::parse_formula(print(p.formula));
      EXPECT_EQ(driver::run_pipeline(spec, with_plan(g, as_text)).source, r.source) << spec << " " << isa_name(isa);
    }
  }
}

TEST(SearchPlan, PlanReplacesTheExpansion) {
  driver::GenOptions g;
  const std::string plan = "L(16,4) * (I(4) (x) DFT(4)) * T(16,4) * (DFT(4) (x) I(4))";
  g.plan = parse::parse_formula(plan);
  driver::PipelineResult r = driver::run_pipeline("DFT(16)", g);
  EXPECT_EQ(print(r.expansion.formula), plan);
  EXPECT_NE(r.source.find("formula: L(16,4)"), std::string::npos);
  g.plan = parse::parse_formula("DFT(8)");
  EXPECT_THROW(driver::run_pipeline("DFT(16)", g), FormulaError);
}

WisdomEntry entry(const std::string &spec, double ns) {
  WisdomEntry e;
  e.key = {spec, "scalar", "double", "forward", "c++ (test 1.0)", "Test CPU"};
  e.formula = spec;
  e.tree = "x";
  e.ns = ns;
  e.default_ns = 2 * ns;
  e.strategy = "dp";
  e.date = "2026-01-01T00:00:00Z";
  e.splgen_version = "0.1.0";
  return e;
}

TEST(SearchWisdom, RoundTripsAndMerges) {
  Wisdom w;
  w.merge(entry("DFT(64)", 100));
  w.merge(entry("DFT(8)", 10));
  w.merge(entry("DFT(64)", 120));  // slower: the old one stays
  ASSERT_EQ(w.entries.size(), 2u);
  EXPECT_EQ(w.entries[0].key.spec, "DFT(8)");  // sorted by size
  EXPECT_EQ(w.entries[1].ns, 100);
  w.merge(entry("DFT(64)", 90));
  EXPECT_EQ(w.entries[1].ns, 90);
  std::string text = format_wisdom(w);
  Wisdom back = parse_wisdom(text, "mem");
  EXPECT_EQ(format_wisdom(back), text);  // same wisdom, same bytes
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[1].formula, "DFT(64)");
  EXPECT_TRUE(back.find(entry("DFT(8)", 1).key));

  test::TempDir dir("splgen-wisdom-test");
  std::string path = dir.file("w.wisdom");
  EXPECT_TRUE(load_wisdom(path).entries.empty());  // missing: empty
  update_wisdom(path, {entry("DFT(8)", 10)});
  update_wisdom(path, {entry("DFT(16)", 20), entry("DFT(8)", 12)});
  Wisdom f = load_wisdom(path);
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].ns, 10);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
}

TEST(SearchWisdom, SmpPacketRoundTrips) {
  WisdomEntry e = entry("DFT(16384)", 100);
  e.key.threads = 2;
  e.smp_packet = 16;
  Wisdom w;
  w.merge(e);
  std::string text = format_wisdom(w);
  EXPECT_NE(text.find("\"smp_packet\": 16"), std::string::npos) << text;
  Wisdom back = parse_wisdom(text, "mem");
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].smp_packet, 16);
  EXPECT_EQ(format_wisdom(back), text);
  // Absent (every file written before mu was searched): one cache line.
  Wisdom plain;
  plain.merge(entry("DFT(64)", 10));
  EXPECT_EQ(format_wisdom(plain).find("smp_packet"), std::string::npos);
  EXPECT_EQ(parse_wisdom(format_wisdom(plain), "mem").entries[0].smp_packet, 0);
  std::string bad = text;
  bad.replace(bad.find("\"smp_packet\": 16"), 18, "\"smp_packet\": -3");
  EXPECT_THROW(parse_wisdom(bad, "mem"), WisdomError);
}

TEST(SearchWisdom, TwoProcessesUpdatingOneFileLoseNothing) {
  test::TempDir dir("splgen-wisdom-test");
  std::string path = dir.file("w.wisdom");
  std::vector<pid_t> children;
  for (int p = 0; p < 2; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int i = 0; i < 15; ++i) update_wisdom(path, {entry(fmt::format("DFT({})", 2 * (p * 100 + i + 2)), 1)});
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(load_wisdom(path).entries.size(), 30u);
}

TEST(SearchWisdom, CorruptFilesAreOneLineErrors) {
  try {
    parse_wisdom("{\n  \"format\": \"splgen-wisdom\",\n  \"version\": 1,\n  \"entries\": [\n    {\"spec\": }\n  ]\n}", "w.json");
    FAIL() << "no error";
  } catch (const WisdomError &e) {
    EXPECT_EQ(std::string(e.what()), "w.json:5:14: expected a value");
  }
  EXPECT_THROW(parse_wisdom("[]", "w"), WisdomError);
  EXPECT_TRUE(parse_wisdom("", "w").entries.empty());  // an empty file is empty wisdom
  EXPECT_TRUE(parse_wisdom(" \n", "w").entries.empty());
  EXPECT_THROW(parse_wisdom("{\"format\": \"other\", \"version\": 1, \"entries\": []}", "w"), WisdomError);
  EXPECT_THROW(parse_wisdom("{\"format\": \"splgen-wisdom\", \"version\": 1, \"entries\": [{\"spec\": \"DFT(8)\"}]}", "w"),
               WisdomError);
}

TEST(SearchWisdom, LookupFallsBackWithAMessage) {
  test::TempDir dir("splgen-wisdom-test");
  std::string path = dir.file("w.wisdom");
  driver::GenOptions g;
  WisdomEntry e = entry("DFT(16)", 5);
  e.key = wisdom_key("DFT(16)", g);
  e.formula = "L(16,4) * (I(4) (x) DFT(4)) * T(16,4) * (DFT(4) (x) I(4))";
  WisdomEntry other = entry("DFT(32)", 5);  // another machine
  update_wisdom(path, {e, other});
  WisdomLookup found = lookup_wisdom(path, "DFT(16)", g);
  ASSERT_TRUE(found.plan);
  EXPECT_EQ(print(found.plan->formula), e.formula);
  WisdomLookup missing = lookup_wisdom(path, "DFT(64)", g);
  EXPECT_FALSE(missing.plan);
  EXPECT_NE(missing.message.find("no entry for DFT(64)"), std::string::npos) << missing.message;
  WisdomLookup stale = lookup_wisdom(path, "DFT(32)", g);
  EXPECT_FALSE(stale.plan);
  EXPECT_NE(stale.message.find("stale"), std::string::npos) << stale.message;
}

// Loads the kernel a search chose and checks it against the long-double reference.
void expect_correct(const std::string &spec, const Plan &plan, const driver::GenOptions &g) {
  test::TempDir dir("splgen-search-test");
  driver::GenOptions o = with_plan(g, plan);
  o.name = "searched";
  std::string src = dir.write("k.cpp", driver::run_pipeline(spec, o).source);
  test::SharedObject lib(test::compile_shared_object({src}, dir.file("k.so"), "", "-O1"));
  auto *kernel = lib.symbol<void(double *, const double *)>("searched");
  int64_t n = parse::parse_formula(spec)->rows;
  std::vector<std::complex<double>> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto &v : x) v = {u(rng), u(rng)};
  kernel(reinterpret_cast<double *>(y.data()), reinterpret_cast<const double *>(x.data()));
  auto ref = measure::reference_dft(measure::convert<long double>(x), -1);
  EXPECT_LT(measure::relative_rms_error(y, ref), 1e-13) << print(plan.formula);
}

SearchOptions small(const std::string &spec, const std::string &s) {
  SearchOptions o = test::quick_search(spec, s, 2);
  o.budget_seconds = 20;
  return o;
}

TEST(Search, StrategiesAreRegistered) {
  EXPECT_EQ(strategy_names(), (std::vector<std::string>{"dp", "random", "exhaustive", "estimate"}));
  EXPECT_FALSE(find_strategy("estimate")->timed);
  EXPECT_EQ(find_strategy("magic"), nullptr);
  EXPECT_THROW(run_search(small("DFT(8)", "magic")), std::invalid_argument);
}

TEST(Search, DpFindsACorrectKernel) {
  SearchOptions o = small("DFT(8)", "dp");
  int reports = 0;
  SearchResult r = run_search(o, [&](const SearchProgress &) { ++reports; });
  EXPECT_GT(reports, 0);
  EXPECT_EQ(r.spec, "DFT(8)");
  EXPECT_GT(r.best_ns, 0);
  EXPECT_GT(r.default_ns, 0);
  EXPECT_LE(r.best_ns, r.default_ns);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.candidates.front().eval.status, Evaluation::Status::Ok);
  expect_correct("DFT(8)", r.best, o.eval.gen);
}

TEST(Search, RandomAndExhaustiveAndEstimate) {
  SearchOptions o = small("DFT(4)", "exhaustive");
  SearchResult ex = run_search(o);
  EXPECT_GE(ex.candidates.size(), 3u);  // codelet, dit(2,2), dif(2,2) (+ the default)
  expect_correct("DFT(4)", ex.best, o.eval.gen);

  o = small("DFT(16)", "random");
  o.max_candidates = 3;
  o.seed = 7;
  SearchResult rnd = run_search(o);
  EXPECT_LE(rnd.candidates.size(), 4u);
  expect_correct("DFT(16)", rnd.best, o.eval.gen);

  o = small("DFT(64)", "estimate");
  SearchResult est = run_search(o);
  EXPECT_EQ(est.done, 0);
  EXPECT_LT(max_abs_difference(to_dense(est.best.formula), to_dense(make_dft(64))), 1e-9);

  o = small("DFT(4096)", "exhaustive");
  EXPECT_THROW(run_search(o), std::invalid_argument);
}

TEST(Search, BudgetAndInterruptReturnTheBestSoFar) {
  SearchOptions o = small("DFT(16)", "dp");
  std::atomic<bool> stop{true};
  SearchResult r = run_search(o, {}, &stop);
  EXPECT_EQ(r.stopped, "interrupted");
  EXPECT_TRUE(r.best.is_default);
  o.budget_seconds = 1e-3;
  r = run_search(o);
  EXPECT_EQ(r.stopped, "budget");
  EXPECT_TRUE(r.best.is_default);
}

}  // namespace
}  // namespace splgen::search
