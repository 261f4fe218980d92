/* Reading and writing Python ints in the native cores (bolivia/play/bots/_core.c,
 * bolivia/play/table/_bounds.c), where the hand's counts are read at every call: a small int
 * off its one digit (the layout of CPython 3.11's ints; 3.12's compact ints by their API), any
 * other by the API. */
#ifndef BOLIVIA_INTS_H
#define BOLIVIA_INTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The int `o` (or an object with __index__) into *out; -1 with an exception where it is none
 * or too large. */
static inline int read_long_long(PyObject *o, long long *out) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0 || size == 1) {
            *out = size ? (long long)((PyLongObject *)o)->ob_digit[0] : 0;
            return 0;
        }
    }
#else
    if (PyLong_CheckExact(o) && PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *out = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 0;
    }
#endif
    long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = x;
    return 0;
}

/* A list of these n ints; NULL with an exception where one cannot be made. */
static inline PyObject *int_list(const int *values, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(values[i]);
        if (x == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

#endif
