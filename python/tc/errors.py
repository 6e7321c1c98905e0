"""The exceptions tc raises."""


class CompileError(RuntimeError):
    """A program tc cannot parse, plan or compile. `diagnostics` lists the
    compiler's messages, each "FILE:LINE:COL: error: ..." where it has a
    place in the program."""

    def __init__(self, message):
        super().__init__(message)
        self.diagnostics = [line for line in str(message).splitlines() if line]


class InputError(ValueError):
    """A run's inputs or arguments do not fit the program (a name it does not
    have, a shape, dtype or block it does not declare, a process count it was
    not compiled for); nothing was run and no file was left."""


class RunError(RuntimeError):
    """The program exited with an error; `returncode` and `stderr` are
    mpirun's, and no output or scratch file was left."""

    def __init__(self, message, returncode=None, stderr=""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
