// The commands of `tunefarm`, each made together with the function that runs it, so that a
// command which parses but has nothing to run cannot exist.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tunefarm::tools::cli {

class CommandTable {
 public:
  using Run = std::function<int()>;

  // A command under `parent` (the app, or a group such as "model") and what it runs.
  CLI::App* Add(CLI::App& parent, const std::string& name, const std::string& description, Run run);
  // A group of commands ("model"): it runs nothing itself and one of its commands must follow.
  CLI::App* AddGroup(CLI::App& parent, const std::string& name, const std::string& description);

  // What is wrong with the command words of `argv` ("unknown command 'frob' (commands: ...)", a
  // group named without one of its commands), or "" when they name a command. Flags are left
  // to the parser.
  std::string CheckCommandWords(const CLI::App& app, int argc, const char* const* argv) const;
  // Runs the command the parsed arguments chose (the deepest one).
  int RunChosen(const CLI::App& app);
  // Whether the running command's option `name` was given on the command line (not defaulted).
  bool Given(const std::string& name) const;
  // The full names ("model tune") of commands that run nothing and have no commands under them:
  // empty unless a command was registered without its function.
  std::vector<std::string> Unrunnable(const CLI::App& app) const;

 private:
  std::map<const CLI::App*, Run> runs_;
  const CLI::App* chosen_ = nullptr;
};

}  // namespace tunefarm::tools::cli
