// Values as JSON, interpreted by their TFF type (reference/execution.md §5): the argument and
// result format of ctff-run. Reading (value_from_json, parse_json) is run/json_read.hpp, writing
// (value_to_json) run/json_write.hpp; this header includes both. They are the only ctff headers
// that need nlohmann/json.
#pragma once

#include "ctff/run/json_read.hpp"
#include "ctff/run/json_write.hpp"
