#pragma once

#include <string>
#include <vector>

/// Options every pirscope-cli command takes, anywhere after the command name:
///   --max-memory SIZE   host-memory budget (MemoryBudget::parseSize: 4G, 512M, 75%)
/// applyGlobalOptions() applies them and removes them from `args`; false with `error` set when a
/// value is missing or malformed.
bool applyGlobalOptions(std::vector<std::string> &args, std::string &error);
