// Non-variadic wrappers around libedit's variadic el_set/el_get/history, which Swift cannot call,
// and accessors for glibc's stdio globals, which Swift 6 rejects as shared mutable state.
#ifndef FATHOM_CEDITLINE_SHIM_H
#define FATHOM_CEDITLINE_SHIM_H

#include <histedit.h>
#include <stdio.h>
#include <termios.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef char *(*fathom_el_prompt_fn)(EditLine *);
typedef unsigned char (*fathom_el_command_fn)(EditLine *, int);
typedef int (*fathom_el_getc_fn)(EditLine *, wchar_t *);

static inline FILE *fathom_stdin(void) { return stdin; }
static inline FILE *fathom_stdout(void) { return stdout; }
static inline FILE *fathom_stderr(void) { return stderr; }

static inline int fathom_el_set_prompt(EditLine *el, fathom_el_prompt_fn prompt, char escape) {
    return el_set(el, EL_PROMPT_ESC, prompt, escape);
}
static inline int fathom_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
static inline int fathom_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }
static inline int fathom_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
static inline void *fathom_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
static inline int fathom_el_set_history(EditLine *el, History *h) {
    // The first argument is libedit's `history` function itself, the second the History object.
    return el_set(el, EL_HIST, history, h);
}
static inline int fathom_el_addfn(EditLine *el, const char *name, const char *help, fathom_el_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int fathom_el_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, NULL);
}
/// Reads characters through `fn`, which may print above the line before it returns one.
static inline int fathom_el_set_getcfn(EditLine *el, fathom_el_getc_fn fn) { return el_set(el, EL_GETCFN, fn); }
/// Redraws the prompt and the line being edited (after something was printed over them).
static inline int fathom_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
/// Turns ISIG off while editing, so Ctrl-C reaches a bound function instead of raising SIGINT.
static inline int fathom_el_disable_isig(EditLine *el) { return el_set(el, EL_SETTY, "-d", "-isig", NULL); }

static inline int fathom_history_setsize(History *h, int size) {
    HistEvent event;
    return history(h, &event, H_SETSIZE, size);
}
static inline int fathom_history_setunique(History *h, int unique) {
    HistEvent event;
    return history(h, &event, H_SETUNIQUE, unique);
}
static inline int fathom_history_enter(History *h, const char *line) {
    HistEvent event;
    return history(h, &event, H_ENTER, line);
}

/// The terminal's size as rows and columns, or zeros when standard output is not a terminal.
static inline void fathom_terminal_size(int *rows, int *columns) {
    struct winsize size = {0};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
        *rows = size.ws_row;
        *columns = size.ws_col;
    } else {
        *rows = 0;
        *columns = 0;
    }
}

#endif
