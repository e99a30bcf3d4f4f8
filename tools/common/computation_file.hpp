// Reading a Computation file for the command-line tools (ctff-inspect, ctff-run): binary or
// protobuf text format, `-` for standard input. Failures are input_error (exit status 2).
#pragma once

#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include <ctff/read.hpp>

namespace ctff_tools {

struct input_error {
  std::string message;
};

// Collects protobuf's text-format parse errors instead of logging them.
class text_errors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (first.empty())
      first = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " + message;
  }
  std::string first;
};

std::string slurp(const std::string& file) {
  if (file == "-") {
    std::ostringstream s;
    s << std::cin.rdbuf();
    return s.str();
  }
  std::ifstream f(file, std::ios::binary | std::ios::ate);
  if (!f) throw input_error{"cannot open " + file};
  // One allocation of the file's size (a 68 MB argument: not grown by doubling, char by char).
  const std::streamoff size = f.tellg();
  if (size < 0) {  // not seekable (a pipe): read to its end
    std::ifstream g(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(g), {}};
  }
  std::string out(static_cast<std::size_t>(size), '\0');
  f.seekg(0);
  if (!f.read(out.data(), size)) throw input_error{"cannot read " + file};
  return out;
}

bool looks_like_text(const std::string& file) {
  for (std::string_view ext : {".textproto", ".txtpb", ".pbtxt", ".prototxt"})
    if (file.size() >= ext.size() && file.compare(file.size() - ext.size(), ext.size(), ext) == 0) return true;
  return false;
}

// The binary form of the input: as it is, or converted from text format. Binary is tried first
// unless the file name says text; the error shown is the one of the form the input seemed to be.
std::string binary_of(const std::string& file, const std::string& data) {
  std::string binary_problem;
  if (!looks_like_text(file)) {
    try {
      (void)ctff::read_computation(data);
      return data;
    } catch (const ctff::read_error& e) {
      binary_problem = e.what();
    }
  }
  federated_language::Computation m;
  google::protobuf::TextFormat::Parser parser;
  text_errors errors;
  parser.RecordErrorsTo(&errors);
  if (parser.ParseFromString(data, &m)) return m.SerializeAsString();
  if (!binary_problem.empty())
    throw input_error{file + ": not a Computation: as binary, " + binary_problem + "; as text format, " +
                      (errors.first.empty() ? std::string("unparsable") : errors.first)};
  throw input_error{file + ": not a Computation in text format: " + errors.first};
}

}  // namespace ctff_tools
