"""Finding and running the wadforge program: on PATH or where the preferences say."""

import os
import shutil
import subprocess

# The oldest wadforge whose import, build and info --json this extension speaks.
OLDEST = (0, 1, 0)


class WadforgeError(Exception):
    """What went wrong, in words for the status bar (never a traceback)."""


def find(configured):
    """The wadforge program to run: `configured` when set, else the one on PATH."""
    if configured:
        path = os.path.abspath(bpy_path(configured))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise WadforgeError(
                f"the wadforge program set in the extension's preferences ({path}) is not an executable file: "
                "set its path in Edit > Preferences > Add-ons > wadforge, or clear it to use the one on PATH")
        program = path
    else:
        program = shutil.which("wadforge")
        if program is None:
            raise WadforgeError(
                "the wadforge program is not on PATH: install it (cargo install --path . in its repository) or "
                "set its path in Edit > Preferences > Add-ons > wadforge")
    version = check_version(program)
    return program, version


def bpy_path(path):
    """A path as Blender writes it (`//` relative to the .blend file) as an absolute one."""
    try:
        import bpy

        return bpy.path.abspath(path)
    except ImportError:  # outside Blender (tests of this module)
        return path


def check_version(program):
    try:
        done = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        raise WadforgeError(f"{program} does not run ({e}): set the wadforge program in the preferences")
    words = done.stdout.split()
    if done.returncode != 0 or len(words) < 2 or words[0] != "wadforge":
        raise WadforgeError(f"{program} is not the wadforge program (it says {done.stdout.strip()!r})")
    try:
        version = tuple(int(p) for p in words[1].split("-")[0].split("."))
    except ValueError:
        raise WadforgeError(f"{program} says its version is {words[1]!r}, which this extension cannot read")
    if version < OLDEST:
        oldest = ".".join(map(str, OLDEST))
        raise WadforgeError(f"{program} is wadforge {words[1]}; this extension needs {oldest} or newer: update it")
    return words[1]


def run(program, args):
    """Runs wadforge with `args`; returns (ok, stdout, stderr)."""
    try:
        done = subprocess.run([program, *args], capture_output=True, text=True)
    except OSError as e:
        raise WadforgeError(f"{program} does not run: {e}")
    return done.returncode == 0, done.stdout, done.stderr
