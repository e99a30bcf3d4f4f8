// Deployable forms: a federated round split into the parts a deployment runs apart (TFF's
// DistributeAggregateForm; MergeableCompForm, run in subrounds), checked, composed back and run
// part by part; over computation_tree, header-only.
#pragma once

#include "ctff/forms/call_dominant.hpp"
#include "ctff/forms/compose.hpp"
#include "ctff/forms/distribute_aggregate_form.hpp"
#include "ctff/forms/form_rules.hpp"
#include "ctff/forms/mergeable_comp_form.hpp"
#include "ctff/forms/rename_in_preorder.hpp"
#include "ctff/forms/simulate.hpp"
#include "ctff/forms/summary.hpp"
#include "ctff/forms/subrounds.hpp"
#include "ctff/forms/to_distribute_aggregate_form.hpp"
#include "ctff/forms/to_mergeable_comp_form.hpp"
#include "ctff/forms/validate.hpp"
