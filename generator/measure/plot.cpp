#include "generator/measure/plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace splgen::measure {

std::string xml_escape(const std::string &s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

double nice_step(double max) {
  if (!(max > 0) || !std::isfinite(max)) return 1;
  double magnitude = std::pow(10.0, std::floor(std::log10(max / 8)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (max / (m * magnitude) <= 8) return m * magnitude;
  return 10 * magnitude;
}

namespace {

// Plot geometry in SVG user units: the data area and the legend to its right.
constexpr double kWidth = 900, kHeight = 540;
constexpr double kLeft = 70, kRight = 690, kTop = 70, kBottom = 480;

// Colour and marker by role, so that plots of different runs read alike: splgen (isa) blue
// circles, splgen scalar green squares, FFTW_MEASURE red triangles, FFTW_PATIENT purple diamonds.
std::size_t role(const BenchResult &r, std::size_t i) {
  const std::string &id = r.implementations[i].id;
  if (i == 0) return 0;
  if (id == "splgen_scalar") return 1;
  if (id == "fftw_measure") return 2;
  if (id == "fftw_patient") return 3;
  return 4 + i;
}
constexpr const char *kColours[] = {"#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#8c564b"};

// One marker shape per implementation, so the lines stay apart in black and white.
std::string marker(std::size_t shape, double x, double y, const char *colour) {
  switch (shape % 4) {
    case 0: return fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)", x, y, colour);
    case 1:
      return fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="7" height="7" fill="{}"/>)", x - 3.5, y - 3.5, colour);
    case 2:
      return fmt::format(R"(<polygon points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}"/>)", x, y - 4.5,
                         x + 4.5, y + 3.5, x - 4.5, y + 3.5, colour);
    default:
      return fmt::format(R"(<polygon points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}"/>)", x,
                         y - 4.5, x + 4.5, y, x, y + 4.5, x - 4.5, y, colour);
  }
}

}  // namespace

std::string format_svg(const BenchResult &r) {
  // Data ranges: x over whole log2 steps around the sizes, y from 0 to a round value.
  double lo = 1, hi = 2, top = 0;
  if (!r.rows.empty()) {
    lo = std::floor(std::log2(double(r.rows.front().n)));
    hi = std::ceil(std::log2(double(r.rows.back().n)));
  }
  if (hi <= lo) hi = lo + 1;
  for (const BenchRow &row : r.rows)
    for (double ns : row.ns)
      if (double g = pseudo_gflops(row.n, ns); std::isfinite(g)) top = std::max(top, g);
  const double step = nice_step(top * 1.05);
  top = std::max(step, std::ceil(top * 1.05 / step) * step);
  auto px = [&](double log2n) { return kLeft + (log2n - lo) / (hi - lo) * (kRight - kLeft); };
  auto py = [&](double gflops) { return kBottom - gflops / top * (kBottom - kTop); };

  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      kWidth, kHeight);
  std::string title = fmt::format("splgen bench: {} {}, {}, {}", r.meta_value("direction"), r.meta_value("spec"),
                                  r.meta_value("isa"), r.meta_value("precision"));
  s += fmt::format("<text x=\"{}\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">{}</text>\n", (kLeft + kRight) / 2,
                   xml_escape(title));
  s += fmt::format("<text x=\"{}\" y=\"48\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n", (kLeft + kRight) / 2,
                   xml_escape(fmt::format("{}; {} {}; {}", r.meta_value("cpu"), r.meta_value("compiler"),
                                          r.meta_value("flags"), r.meta_value("fftw_version"))));

  // Axes: grid, ticks and labels.
  s += "<g stroke=\"#ddd\" stroke-width=\"1\">\n";
  const double xstep = hi - lo > 24 ? 2 : 1;
  for (double k = lo; k <= hi + 1e-9; k += xstep)
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>\n", px(k), kTop, kBottom);
  for (double g = 0; g <= top + 1e-9; g += step)
    s += fmt::format("<line x1=\"{0}\" y1=\"{2:.1f}\" x2=\"{1}\" y2=\"{2:.1f}\"/>\n", kLeft, kRight, py(g));
  s += "</g>\n<g text-anchor=\"middle\">\n";
  for (double k = lo; k <= hi + 1e-9; k += xstep)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{}</text>\n", px(k), kBottom + 18, k);
  s += "</g>\n<g text-anchor=\"end\">\n";
  for (double g = 0; g <= top + 1e-9; g += step)
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{:g}</text>\n", kLeft - 8, py(g) + 4, g);
  s += "</g>\n";
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", kLeft, kTop,
                   kRight - kLeft, kBottom - kTop);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">log2(n)</text>\n", (kLeft + kRight) / 2,
                   kBottom + 42);
  s += fmt::format(
      "<text x=\"20\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 20 {0})\">"
      "pseudo-Gflop/s = 5 n log2(n) / t(ns)</text>\n",
      (kTop + kBottom) / 2);

  // One polyline with markers per implementation (sizes where it was not run are skipped),
  // and its legend entry.
  for (std::size_t i = 0; i < r.implementations.size(); ++i) {
    const std::size_t shape = role(r, i);
    const char *colour = kColours[shape % std::size(kColours)];
    std::string points, markers;
    for (const BenchRow &row : r.rows) {
      double g = pseudo_gflops(row.n, row.ns[i]);
      if (!std::isfinite(g)) continue;
      double x = px(std::log2(double(row.n))), y = py(g);
      points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", x, y);
      markers += marker(shape, x, y, colour) + "\n";
    }
    s += fmt::format("<g id=\"{}\">\n<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n{}",
                     xml_escape(r.implementations[i].id), points, colour, markers);
    double ly = kTop + 10 + 22 * double(i);
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>\n",
                     kRight + 20, ly, kRight + 50, colour);
    s += marker(shape, kRight + 35, ly, colour) + "\n";
    s += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n</g>\n", kRight + 58, ly + 4,
                     xml_escape(r.implementations[i].label));
  }
  return s + "</svg>\n";
}

}  // namespace splgen::measure
