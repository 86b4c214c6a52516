cdef extern from "_errors.h":
    void mc_set_error_types(object invalid_hand, object invalid_argument)
    void mc_raise_py_error()
