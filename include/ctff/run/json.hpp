// Values as JSON, interpreted by their TFF type (reference/execution.md §5): the argument and
// result format of ctff-run. Reading (value_from_json, parse_json) is run/json_read.hpp, reading
// text in one pass (value_from_json_text) run/json_text_read.hpp, writing (value_to_json)
// run/json_write.hpp; this header includes them. They are the only ctff headers that need
// nlohmann/json.
#pragma once

#include "ctff/run/json_read.hpp"
#include "ctff/run/json_text_read.hpp"
#include "ctff/run/json_write.hpp"
