#include "tools/cli/command_table.h"

#include <iostream>

#include "tools/commands/exit_codes.h"

namespace tunefarm::tools::cli {
namespace {

bool Any(const CLI::App*) { return true; }

void CollectUnrunnable(const CLI::App& app, const std::string& prefix,
                       const std::map<const CLI::App*, CommandTable::Run>& runs,
                       std::vector<std::string>* out) {
  for (const CLI::App* cmd : app.get_subcommands(Any)) {
    const std::string name = prefix.empty() ? cmd->get_name() : prefix + " " + cmd->get_name();
    const bool has_commands = !cmd->get_subcommands(Any).empty();
    auto it = runs.find(cmd);
    if (!has_commands && (it == runs.end() || !it->second)) out->push_back(name);
    CollectUnrunnable(*cmd, name, runs, out);
  }
}

std::string Names(const CLI::App& group) {
  std::string names;
  for (const CLI::App* cmd : group.get_subcommands(Any)) {
    names += (names.empty() ? "" : ", ") + cmd->get_name();
  }
  return names;
}

}  // namespace

CLI::App* CommandTable::Add(CLI::App& parent, const std::string& name,
                            const std::string& description, Run run) {
  CLI::App* cmd = parent.add_subcommand(name, description);
  runs_.emplace(cmd, std::move(run));
  return cmd;
}

CLI::App* CommandTable::AddGroup(CLI::App& parent, const std::string& name,
                                 const std::string& description) {
  CLI::App* group = parent.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

std::string CommandTable::CheckCommandWords(const CLI::App& app, int argc,
                                            const char* const* argv) const {
  const CLI::App* group = &app;
  std::string path;  // the command words so far: "model"
  for (int i = 1; !group->get_subcommands(Any).empty(); ++i) {
    const std::string word = i < argc ? argv[i] : "";
    if (word == "-h" || word == "--help" || (group == &app && word == "--version")) return "";
    if (word.empty() || word[0] == '-') {
      return (path.empty() ? std::string("a command is required")
                           : "'" + path + "' needs one of its commands") +
             " (commands: " + Names(*group) + ")";
    }
    const CLI::App* next = nullptr;
    for (const CLI::App* cmd : group->get_subcommands(Any)) {
      if (cmd->get_name() == word) next = cmd;
    }
    if (next == nullptr) {
      return "unknown command '" + (path.empty() ? word : path + " " + word) +
             "' (commands: " + Names(*group) + ")";
    }
    path += (path.empty() ? "" : " ") + next->get_name();
    group = next;
  }
  return "";
}

int CommandTable::RunChosen(const CLI::App& app) {
  const CLI::App* chosen = &app;
  while (!chosen->get_subcommands().empty()) chosen = chosen->get_subcommands().front();
  chosen_ = chosen;
  auto it = runs_.find(chosen);
  if (it == runs_.end() || !it->second) {
    std::cerr << "tunefarm: internal error: command '" << chosen->get_name()
              << "' runs nothing (see tunefarm --help)\n";
    return kExitFailed;
  }
  return it->second();
}

bool CommandTable::Given(const std::string& name) const {
  return chosen_ != nullptr && chosen_->count(name) > 0;
}

std::vector<std::string> CommandTable::Unrunnable(const CLI::App& app) const {
  std::vector<std::string> names;
  CollectUnrunnable(app, "", runs_, &names);
  return names;
}

}  // namespace tunefarm::tools::cli
