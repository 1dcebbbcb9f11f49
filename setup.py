"""The compiled cinch search is optional: where no C compiler is found, the build goes
on without it and the pure-Python search (the reference) runs instead.

A build that could not compile the search leaves ``booray_audit/cinch/_search.unbuilt`` in the
package, naming the compiler it tried; a build that could removes it.  The tests read it
(tests/test_compiled.py): an install whose own compiler works must have built the search,
so a C file that no longer compiles is caught, while an install without a compiler
(``CC=false pip install .``) passes with the pure-Python search."""
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


NOTE = "_search.unbuilt"


class BuildExt(build_ext):
    def build_extension(self, ext):
        note = os.path.join(os.path.dirname(self.get_ext_fullpath(ext.name)), NOTE)
        try:
            super().build_extension(ext)
        except Exception:
            os.makedirs(os.path.dirname(note), exist_ok=True)
            with open(note, "w") as f:
                f.write(" ".join(getattr(self.compiler, "compiler_so", None) or []) + "\n")
            raise  # optional=True: the build goes on without it
        if os.path.exists(note):
            os.remove(note)

    def copy_extensions_to_source(self):
        """An editable install: the note goes to the source tree beside the module, or
        goes from it once the module is built."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            package = self.get_ext_fullname(ext.name).split(".")[:-1]
            built = os.path.join(self.build_lib, *package, NOTE)
            here = os.path.join(build_py.get_package_dir(".".join(package)), NOTE)
            if os.path.exists(built):
                self.copy_file(built, here)
            elif os.path.exists(here):
                os.remove(here)


setup(ext_modules=[Extension("booray_audit.cinch._search", ["booray_audit/cinch/_search.c"],
                             extra_compile_args=["-O3"], optional=True)],
      cmdclass={"build_ext": BuildExt})
