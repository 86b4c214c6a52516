# Cython declarations for rules/records.py (an augmenting .pxd, see ../game/engine.pxd): compiled,
# a record's fields are stored by a C loop over typed tuples into its instance dict.

cimport cython


@cython.locals(fields=dict, i=Py_ssize_t)
cpdef _filled(record, tuple names, tuple values)
