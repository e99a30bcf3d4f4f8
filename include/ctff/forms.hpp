// Deployable forms: a federated round split into the parts a deployment runs apart (TFF's
// DistributeAggregateForm), checked, and composed back; over computation_tree, header-only.
#pragma once

#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/call_dominant.hpp"
#include "ctff/forms/rename_in_preorder.hpp"
#include "ctff/forms/to_distribute_aggregate_form.hpp"
