// Every federated and sequence operator (one header per concept).
#pragma once

#include "ctff/intrinsics/federated_aggregate.hpp"
#include "ctff/intrinsics/aggregations.hpp"
#include "ctff/intrinsics/broadcast.hpp"
#include "ctff/intrinsics/map.hpp"
#include "ctff/intrinsics/place.hpp"
#include "ctff/intrinsics/secure.hpp"
#include "ctff/intrinsics/select.hpp"
#include "ctff/intrinsics/sequence.hpp"
#include "ctff/intrinsics/zip.hpp"
