"""The compiled cinch search (with the plain walk), the compiled fast reader, and the
compiled settlement and JSON of plain hands are optional: where no C compiler is found,
the build goes on without them and the pure-Python code (the reference) runs instead.

A build that could not compile the search leaves ``booray_audit/cinch/_search.unbuilt`` in the
package, naming the compiler it tried (``booray_audit/notation/_strict.unbuilt`` for the
reader, ``booray_audit/judge/_settle.unbuilt`` for the settlement,
``booray_audit/report/_document.unbuilt`` for the JSON); a build that could removes it.
The tests read it
(tests/test_compiled.py): an install whose own compiler works must have built the search,
so a C file that no longer compiles is caught, while an install without a compiler
(``CC=false pip install .``) passes with the pure-Python search."""
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def note_of(name: str) -> str:
    """The note a build that could not compile module ``name`` leaves: ``_search.unbuilt``."""
    return name.rsplit(".", 1)[-1] + ".unbuilt"


class BuildExt(build_ext):
    def build_extension(self, ext):
        note = os.path.join(os.path.dirname(self.get_ext_fullpath(ext.name)), note_of(ext.name))
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
            built = os.path.join(self.build_lib, *package, note_of(ext.name))
            here = os.path.join(build_py.get_package_dir(".".join(package)), note_of(ext.name))
            if os.path.exists(built):
                self.copy_file(built, here)
            elif os.path.exists(here):
                os.remove(here)


setup(ext_modules=[Extension("booray_audit.cinch._search",
                             ["booray_audit/cinch/_search.c", "booray_audit/cinch/_search_bmi.c"],
                             depends=["booray_audit/cinch/_walk.c"], extra_compile_args=["-O3"], optional=True),
                   Extension("booray_audit.notation._strict", ["booray_audit/notation/_strict.c"],
                             extra_compile_args=["-O3"], optional=True),
                   Extension("booray_audit.judge._settle", ["booray_audit/judge/_settle.c"],
                             extra_compile_args=["-O3"], optional=True),
                   Extension("booray_audit.report._document", ["booray_audit/report/_document.c"],
                             extra_compile_args=["-O3"], optional=True)],
      cmdclass={"build_ext": BuildExt})
