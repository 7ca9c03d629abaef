/*
 * ctorch/ctorch.h - everything public: tensors, the dispatcher and its trace, the operators,
 * autograd, dispatch and function modes, wrapper subclasses, the profiler, nn, optim, random
 * numbers, the intra-op threads, testing hooks and the version. A program needs no other ctorch
 * header, and calls ct_init() (ctorch/init.h) once before anything else.
 */
#ifndef CTORCH_CTORCH_H
#define CTORCH_CTORCH_H

#include "ctorch/alloc.h"
#include "ctorch/autograd.h"
#include "ctorch/backends.h"
#include "ctorch/dispatch.h"
#include "ctorch/dtype.h"
#include "ctorch/error.h"
#include "ctorch/export.h"
#include "ctorch/factory.h"
#include "ctorch/file_set.h"
#include "ctorch/init.h"
#include "ctorch/json.h"
#include "ctorch/keys.h"
#include "ctorch/mode.h"
#include "ctorch/nn.h"
#include "ctorch/ops_generated.h"
#include "ctorch/optim.h"
#include "ctorch/parallel.h"
#include "ctorch/profiler.h"
#include "ctorch/random.h"
#include "ctorch/subclass.h"
#include "ctorch/tensor.h"
#include "ctorch/testing.h"
#include "ctorch/text.h"
#include "ctorch/trace.h"
#include "ctorch/value.h"
#include "ctorch/version.h"

#endif
