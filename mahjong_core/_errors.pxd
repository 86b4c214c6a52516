cdef extern from "_errors.h":
    void mc_set_invalid_hand_error(object exc_type)
    void mc_raise_py_error()
