// Translation of the core's C++ exceptions into the package's Python exceptions.
// (Binding-side only: the C++ core in cpp/ never includes Python.h.)
#pragma once

#include <Python.h>

#include <new>
#include <stdexcept>

#include "mahjong_core/errors.h"

static PyObject* mc_invalid_hand_error = nullptr;
static PyObject* mc_invalid_argument_error = nullptr;

// Called once at import with mahjong_core.errors.InvalidHandError and InvalidArgumentError.
static inline void mc_set_error_types(PyObject* invalid_hand, PyObject* invalid_argument) {
  Py_XINCREF(invalid_hand);
  Py_XINCREF(invalid_argument);
  mc_invalid_hand_error = invalid_hand;
  mc_invalid_argument_error = invalid_argument;
}

// Used as Cython's `except +mc_raise_py_error` handler: runs inside a catch block.
static inline void mc_raise_py_error() {
  try {
    if (PyErr_Occurred()) return;
    throw;
  } catch (const mahjong_core::InvalidHand& e) {
    PyErr_SetString(mc_invalid_hand_error ? mc_invalid_hand_error : PyExc_ValueError, e.what());
  } catch (const mahjong_core::InvalidArgument& e) {
    PyErr_SetString(mc_invalid_argument_error ? mc_invalid_argument_error : PyExc_ValueError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception in mahjong_core");
  }
}
