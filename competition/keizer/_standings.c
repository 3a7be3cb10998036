/* The standings document's bytes, compiled: the twin of `output.standings_json` for the
 * command line (issue 28). Optional: where it was not built, `output.standings_bytes` writes
 * the same bytes in Python, and the tests hold both to the golden output byte for byte.
 *
 * It knows no Keizer rule. Python computes every ranking (the order, the totals, the values
 * of its valuation) and the per-round terms of each player's points; this file multiplies the
 * terms out (points of round r = factor × value of target + own share × own value, the linear
 * form `ranking._points` evaluates) and writes them in the document's format, taking every
 * amount's two texts from Python's `AmountTexts` (`amounts.py`: the one home of the rounding).
 *
 * document(who, position_values, factors, targets, extra, states, rounded, exact) -> bytes
 *   who              list of bytes: per player, the UTF-8 of `"id": "...", "name": "..."`
 *   position_values  list of int: the value of every 0-based position
 *   factors, targets list (per player) of lists (per round) of int
 *   extra            list (per player) of dicts {round index: own share}
 *   states           list of (k, order, totals, values): ranking k's order (player indexes),
 *                    every player's total and value, indexed by player
 *   rounded, exact   mappings int -> str: an amount's rounded and exact JSON text
 * Raises OverflowError when an amount does not fit in 64 bits (the caller writes in Python).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef struct {
    char *data;
    Py_ssize_t length, capacity;
} Buffer;

static int grow(Buffer *buffer, Py_ssize_t more)
{
    Py_ssize_t needed = buffer->length + more;
    if (needed <= buffer->capacity)
        return 0;
    Py_ssize_t capacity = buffer->capacity ? buffer->capacity : 64;
    while (capacity < needed)
        capacity *= 2;
    char *data = PyMem_Realloc(buffer->data, capacity);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    buffer->data = data;
    buffer->capacity = capacity;
    return 0;
}

static int add(Buffer *buffer, const char *text, Py_ssize_t length)
{
    if (grow(buffer, length) < 0)
        return -1;
    memcpy(buffer->data + buffer->length, text, length);
    buffer->length += length;
    return 0;
}

#define ADD_LITERAL(buffer, text) add((buffer), (text), (Py_ssize_t)sizeof(text) - 1)

static int add_integer(Buffer *buffer, long long value)
{
    char text[24], *end = text + sizeof text, *at = end;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        *--at = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        *--at = '-';
    return add(buffer, at, end - at);
}

/* An amount's two texts, looked up in Python's mappings once per amount and kept here (with
 * a reference, so the text stays while the slot holds it). */
#define SLOTS 8192 /* 2 ** 13: the hash keeps the top 13 bits */
typedef struct {
    long long amount;
    PyObject *rounded_object, *exact_object; /* NULL: the slot is empty */
    const char *rounded, *exact;
    Py_ssize_t rounded_length, exact_length;
} Slot;

typedef struct {
    Slot *slots;
    PyObject *rounded, *exact;
} Texts;

static void empty(Slot *slot)
{
    Py_CLEAR(slot->rounded_object);
    Py_CLEAR(slot->exact_object);
}

static PyObject *text_of(PyObject *mapping, PyObject *key, const char **text, Py_ssize_t *length)
{
    PyObject *value = PyObject_GetItem(mapping, key);
    if (value == NULL)
        return NULL;
    if (!PyUnicode_Check(value)) {
        Py_DECREF(value);
        PyErr_SetString(PyExc_TypeError, "an amount's text must be a str");
        return NULL;
    }
    *text = PyUnicode_AsUTF8AndSize(value, length);
    if (*text == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

static Slot *texts_of(Texts *texts, long long amount)
{
    /* Fibonacci hashing: amounts are multiples of a few units, their low bits alike */
    Slot *slot = &texts->slots[((unsigned long long)amount * 11400714819323198485ULL) >> 51];
    if (slot->rounded_object != NULL && slot->amount == amount)
        return slot;
    empty(slot);
    PyObject *key = PyLong_FromLongLong(amount);
    if (key == NULL)
        return NULL;
    slot->rounded_object = text_of(texts->rounded, key, &slot->rounded, &slot->rounded_length);
    if (slot->rounded_object != NULL)
        slot->exact_object = text_of(texts->exact, key, &slot->exact, &slot->exact_length);
    Py_DECREF(key);
    if (slot->exact_object == NULL) {
        empty(slot);
        return NULL;
    }
    slot->amount = amount;
    return slot;
}

/* Python's int as a C one; -1 with OverflowError when it does not fit. */
static int as_integer(PyObject *object, long long *value)
{
    int overflow = 0;
    *value = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_OverflowError, "an amount does not fit in 64 bits");
        return -1;
    }
    return (*value == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* A list of n ints as a C array (n fixed by the caller); -1 on a wrong shape. */
static int integers(PyObject *list, Py_ssize_t n, long long *into, const char *what)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %zd ints expected", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (as_integer(PyList_GET_ITEM(list, i), &into[i]) < 0)
            return -1;
    return 0;
}

typedef struct {
    Py_ssize_t players, rounds;
    long long *factors, *targets, *extra; /* players × rounds */
    long long *last;                      /* players × rounds: the points last written */
    Py_ssize_t *last_k;                   /* how many of them (-1: none yet) */
    Buffer *last_rounded, *last_exact;    /* their texts, joined by ", " */
    long long *points, *values, *totals, *order, *position_values;
    char *block; /* all of the arrays above, zeroed: one allocation, one free */
} Work;

#define ALIGNED(bytes) (((bytes) + 15) & ~(size_t)15)

/* Where each array of the work starts in a block at `base`, and the block's size: called
 * once without a block to measure it, once to lay the arrays out in the allocated one. */
static size_t layout(Work *work, char *base, Py_ssize_t positions)
{
    Py_ssize_t n = work->players, cells = n * work->rounds + 1;
    size_t used = 0;
#define PLACE(array, count)                                          \
    work->array = base ? (void *)(base + used) : NULL;               \
    used += ALIGNED((size_t)(count) * sizeof *work->array)
    PLACE(factors, cells);
    PLACE(targets, cells);
    PLACE(extra, cells);
    PLACE(last, cells);
    PLACE(last_k, n + 1);
    PLACE(last_rounded, n + 1);
    PLACE(last_exact, n + 1);
    PLACE(points, work->rounds + 1);
    PLACE(values, n + 1);
    PLACE(totals, n + 1);
    PLACE(order, n + 1);
    PLACE(position_values, positions + 1);
#undef PLACE
    return used;
}

static void release(Work *work)
{
    if (work->block)
        for (Py_ssize_t i = 0; i < work->players; i++) {
            PyMem_Free(work->last_rounded[i].data);
            PyMem_Free(work->last_exact[i].data);
        }
    PyMem_Free(work->block);
}

static int terms(Work *work, PyObject *factors, PyObject *targets, PyObject *extra)
{
    Py_ssize_t n = work->players, rounds = work->rounds;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row_factors = PyList_GET_ITEM(factors, i);
        PyObject *row_targets = PyList_GET_ITEM(targets, i);
        if (integers(row_factors, rounds, &work->factors[i * rounds], "factors") < 0
            || integers(row_targets, rounds, &work->targets[i * rounds], "targets") < 0)
            return -1;
        for (Py_ssize_t r = 0; r < rounds; r++)
            if (work->targets[i * rounds + r] < 0 || work->targets[i * rounds + r] >= n) {
                PyErr_SetString(PyExc_ValueError, "targets: a player index expected");
                return -1;
            }
        PyObject *own = PyList_GET_ITEM(extra, i);
        if (!PyDict_Check(own)) {
            PyErr_SetString(PyExc_ValueError, "extra: a dict per player expected");
            return -1;
        }
        PyObject *key, *value;
        Py_ssize_t at = 0;
        while (PyDict_Next(own, &at, &key, &value)) {
            long long r, share;
            if (as_integer(key, &r) < 0 || as_integer(value, &share) < 0)
                return -1;
            if (r < 0 || r >= rounds) {
                PyErr_SetString(PyExc_ValueError, "extra: a round index expected");
                return -1;
            }
            work->extra[i * rounds + r] = share;
        }
    }
    return 0;
}

/* Player i's points of rounds 1..k with these values, into work->points. */
static int points_of(Work *work, Py_ssize_t i, Py_ssize_t k)
{
    const long long *factor = &work->factors[i * work->rounds];
    const long long *target = &work->targets[i * work->rounds];
    const long long *extra = &work->extra[i * work->rounds];
    for (Py_ssize_t r = 0; r < k; r++) {
        long long point, own;
        if (__builtin_mul_overflow(factor[r], work->values[target[r]], &point)
            || __builtin_mul_overflow(extra[r], work->values[i], &own)
            || __builtin_add_overflow(point, own, &point)) {
            PyErr_SetString(PyExc_OverflowError, "an amount does not fit in 64 bits");
            return -1;
        }
        work->points[r] = point;
    }
    return 0;
}

/* Player i's texts of their k points: the last ones with the new round added when the
 * rounds before are unchanged, else written afresh. */
static int point_texts(Work *work, Texts *texts, Py_ssize_t i, Py_ssize_t k)
{
    Buffer *rounded = &work->last_rounded[i], *exact = &work->last_exact[i];
    long long *last = &work->last[i * work->rounds];
    Py_ssize_t from = 0;
    if (k > 0 && work->last_k[i] == k - 1
        && memcmp(last, work->points, (size_t)(k - 1) * sizeof(long long)) == 0)
        from = k - 1;
    else
        rounded->length = exact->length = 0;
    for (Py_ssize_t r = from; r < k; r++) {
        Slot *slot = texts_of(texts, work->points[r]);
        if (slot == NULL)
            return -1;
        if (r > 0 && (ADD_LITERAL(rounded, ", ") < 0 || ADD_LITERAL(exact, ", ") < 0))
            return -1;
        if (add(rounded, slot->rounded, slot->rounded_length) < 0
            || add(exact, slot->exact, slot->exact_length) < 0)
            return -1;
    }
    memcpy(last, work->points, (size_t)k * sizeof(long long));
    work->last_k[i] = k;
    return 0;
}

static int ranking(Work *work, Texts *texts, PyObject *who, PyObject *state, Buffer *out)
{
    Py_ssize_t n = work->players;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 4) {
        PyErr_SetString(PyExc_ValueError, "states: (k, order, totals, values) expected");
        return -1;
    }
    long long k;
    PyObject *order = PyTuple_GET_ITEM(state, 1);
    if (as_integer(PyTuple_GET_ITEM(state, 0), &k) < 0
        || integers(PyTuple_GET_ITEM(state, 2), n, work->totals, "totals") < 0
        || integers(PyTuple_GET_ITEM(state, 3), n, work->values, "values") < 0)
        return -1;
    if (k < 0 || k > work->rounds || !PyList_Check(order) || PyList_GET_SIZE(order) > n) {
        PyErr_SetString(PyExc_ValueError, "states: a ranking of the season expected");
        return -1;
    }
    Py_ssize_t ranked = PyList_GET_SIZE(order);
    if (integers(order, ranked, work->order, "order") < 0)
        return -1;
    if (ADD_LITERAL(out, "[") < 0)
        return -1;
    for (Py_ssize_t position = 0; position < ranked; position++) {
        long long i = work->order[position];
        if (i < 0 || i >= n) {
            PyErr_SetString(PyExc_ValueError, "order: a player index expected");
            return -1;
        }
        if (points_of(work, i, k) < 0 || point_texts(work, texts, i, k) < 0)
            return -1;
        Slot *total = texts_of(texts, work->totals[i]);
        if (total == NULL)
            return -1;
        PyObject *names = PyList_GET_ITEM(who, i);
        Buffer *rounded = &work->last_rounded[i], *exact = &work->last_exact[i];
        if ((position > 0 && ADD_LITERAL(out, ", ") < 0)
            || ADD_LITERAL(out, "{\"rank\": ") < 0 || add_integer(out, position + 1) < 0
            || ADD_LITERAL(out, ", ") < 0
            || add(out, PyBytes_AS_STRING(names), PyBytes_GET_SIZE(names)) < 0
            || ADD_LITERAL(out, ", \"value\": ") < 0
            || add_integer(out, work->position_values[position]) < 0
            || ADD_LITERAL(out, ", \"total\": ") < 0
            || add(out, total->rounded, total->rounded_length) < 0
            || ADD_LITERAL(out, ", \"total_exact\": ") < 0
            || add(out, total->exact, total->exact_length) < 0
            || ADD_LITERAL(out, ", \"points\": [") < 0
            || add(out, rounded->data, rounded->length) < 0
            || ADD_LITERAL(out, "], \"points_exact\": [") < 0
            || add(out, exact->data, exact->length) < 0 || ADD_LITERAL(out, "]}") < 0)
            return -1;
    }
    return ADD_LITERAL(out, "]");
}

static PyObject *document(PyObject *module, PyObject *args)
{
    PyObject *who, *position_values, *factors, *targets, *extra, *states, *rounded, *exact;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!OO:document", &PyList_Type, &who, &PyList_Type,
                          &position_values, &PyList_Type, &factors, &PyList_Type, &targets,
                          &PyList_Type, &extra, &PyList_Type, &states, &rounded, &exact))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(who);
    if (PyList_GET_SIZE(factors) != n || PyList_GET_SIZE(targets) != n
        || PyList_GET_SIZE(extra) != n || PyList_GET_SIZE(position_values) < n) {
        PyErr_SetString(PyExc_ValueError, "one entry per player expected");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyBytes_Check(PyList_GET_ITEM(who, i))) {
            PyErr_SetString(PyExc_ValueError, "who: bytes per player expected");
            return NULL;
        }
    Py_ssize_t rounds = 0;
    if (n > 0) {
        PyObject *first = PyList_GET_ITEM(factors, 0);
        if (!PyList_Check(first)) {
            PyErr_SetString(PyExc_ValueError, "factors: a list per player expected");
            return NULL;
        }
        rounds = PyList_GET_SIZE(first);
    }
    Work work = {.players = n, .rounds = rounds};
    Texts texts = {.rounded = rounded, .exact = exact};
    Buffer out = {0};
    PyObject *result = NULL;
    Py_ssize_t positions = PyList_GET_SIZE(position_values);
    work.block = PyMem_Calloc(1, layout(&work, NULL, positions));
    texts.slots = PyMem_Calloc(SLOTS, sizeof(Slot));
    if (!work.block || !texts.slots) {
        PyErr_NoMemory();
        goto done;
    }
    layout(&work, work.block, positions);
    for (Py_ssize_t i = 0; i < n; i++)
        work.last_k[i] = -1;
    if (integers(position_values, positions, work.position_values, "position_values") < 0
        || terms(&work, factors, targets, extra) < 0 || ADD_LITERAL(&out, "{\"rankings\": [") < 0)
        goto done;
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(states); s++)
        if ((s > 0 && ADD_LITERAL(&out, ", ") < 0)
            || ranking(&work, &texts, who, PyList_GET_ITEM(states, s), &out) < 0)
            goto done;
    if (ADD_LITERAL(&out, "]}") < 0)
        goto done;
    result = PyBytes_FromStringAndSize(out.data, out.length);
done:
    release(&work);
    if (texts.slots)
        for (Py_ssize_t i = 0; i < SLOTS; i++)
            empty(&texts.slots[i]);
    PyMem_Free(texts.slots);
    PyMem_Free(out.data);
    return result;
}

static PyMethodDef methods[] = {
    {"document", document, METH_VARARGS,
     "document(who, position_values, factors, targets, extra, states, rounded, exact) -> "
     "bytes: the standings document (see the file's head)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_standings", "The standings document, compiled (output.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__standings(void) { return PyModule_Create(&definition); }
