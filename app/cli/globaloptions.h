#pragma once

#include <string>
#include <vector>

/// Options every pirscope-cli command takes, anywhere after the command name:
///   --max-memory SIZE   host-memory budget (MemoryBudget::parseSize: 4G, 512M, 75%)
///   --max-ops N         at most N executed ops per run (Interpreter::setDefaultMaxOps); only for
///                       the commands that run programs (`runs`), refused by the others
/// applyGlobalOptions() applies them and removes them from `args`; false with `error` set when a
/// value is missing or malformed.
bool applyGlobalOptions(std::vector<std::string> &args, bool runs, std::string &error);
