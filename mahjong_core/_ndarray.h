// Binding-side helpers that reach into object layouts (never included by the C++ core):
// the leading fields of a NumPy array object, for the batch fast path, and the class-lookup slot.
//
// Why: getting a pointer to an array's data through the buffer protocol costs more than the whole
// batch call is allowed to (NumPy builds a format string and a cache entry per request), and the
// package must build without NumPy's headers. These fields — data, nd, dimensions, strides, base,
// descr, flags — lead PyArrayObject in every NumPy since 1.7, 2.x included (NumPy keeps them for
// its ABI; its own PyArray_DATA/NDIM/DIMS/FLAGS macros read exactly these). The binding reads them
// only on objects whose type is exactly numpy.ndarray and whose dtype is the uint8/int8/bool
// singleton it looked up; anything else takes the buffer-protocol path.
#pragma once

#include <Python.h>

typedef struct {
  PyObject_HEAD
  char* data;
  int nd;
  Py_ssize_t* dimensions;
  Py_ssize_t* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
} mc_ndarray_head;

// NumPy's NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED (public ABI constants).
#define MC_NPY_C_CONTIGUOUS 0x0001
#define MC_NPY_ALIGNED 0x0100

static inline mc_ndarray_head* mc_ndarray(PyObject* obj) { return (mc_ndarray_head*)obj; }

// Gives metaclass `meta` the attribute lookup of `type` itself (see mahjong_core.tiles._EnumType).
static inline void mc_plain_class_lookup(PyObject* meta) {
  ((PyTypeObject*)meta)->tp_getattro = PyType_Type.tp_getattro;
}
