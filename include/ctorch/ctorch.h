/*
 * ctorch/ctorch.h - everything: tensors, the dispatcher, operators, random numbers, tracing, memory.
 */
#ifndef CTORCH_CTORCH_H
#define CTORCH_CTORCH_H

#include "ctorch/alloc.h"
#include "ctorch/dispatch.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "ctorch/keys.h"
#include "ctorch/ops_generated.h"
#include "ctorch/profiler.h"
#include "ctorch/random.h"
#include "ctorch/tensor.h"
#include "ctorch/trace.h"
#include "ctorch/value.h"

#endif
