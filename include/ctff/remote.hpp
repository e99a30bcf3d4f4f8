// Running computations on many machines over TensorFlow Federated's own remote-execution protocol
// (the gRPC service tensorflow_federated.v0.ExecutorGroup): ctff::serve starts a worker that TFF's
// controllers and ctff's can drive; values travel as TFF's Value messages (links ctff::remote).
#pragma once

#include "ctff/remote/remote_executor.hpp"
#include "ctff/remote/value_message.hpp"
#include "ctff/remote/worker.hpp"
