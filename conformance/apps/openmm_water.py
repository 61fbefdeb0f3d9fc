"""One OpenMM run for conformance/apps/openmm.sh: a TIP3P water box (3 nm,
PME, 0.9 nm cutoff, rigid water, 2 fs Langevin steps) on the OpenCL platform
in single precision, on whichever OpenCL platform the loader offers
(OCL_ICD_VENDORS). Checks the forces of the first state against OpenMM's
Reference platform, then times STEPS steps after a warm-up. Prints one line:

    openmm ATOMS NS_PER_DAY FORCE_REL_ERR CONTEXT_SECONDS

Run it with Debian's /usr/bin/python3 (python3-simtk). Exit status 1 if the
forces disagree (relative RMS error above TOLERANCE).
"""

import sys
import time

import openmm as mm
from openmm import app, unit

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 300
# Relative RMS difference of all force vectors, single against Reference
# (OpenMM's own testInstallation reports median differences near 1e-6).
TOLERANCE = 1e-4


def water_box():
    ff = app.ForceField("tip3p.xml")
    modeller = app.Modeller(app.Topology(), [])
    modeller.addSolvent(ff, model="tip3p", boxSize=mm.Vec3(3, 3, 3) * unit.nanometer)
    system = ff.createSystem(
        modeller.topology,
        nonbondedMethod=app.PME,
        nonbondedCutoff=0.9 * unit.nanometer,
        constraints=app.HBonds,
        rigidWater=True,
    )
    return system, modeller.positions


def integrator():
    return mm.LangevinMiddleIntegrator(300 * unit.kelvin, 1 / unit.picosecond, 0.002 * unit.picoseconds)


def forces(context):
    f = context.getState(getForces=True).getForces(asNumpy=True)
    return f.value_in_unit(unit.kilojoule_per_mole / unit.nanometer)


def main():
    system, positions = water_box()
    t0 = time.perf_counter()
    ocl = mm.Context(system, integrator(), mm.Platform.getPlatformByName("OpenCL"), {"Precision": "single"})
    ocl.setPositions(positions)
    got = forces(ocl)  # the first evaluation builds the kernels
    context_s = time.perf_counter() - t0
    print(f"OpenCL device: {ocl.getPlatform().getPropertyValue(ocl, 'OpenCLDeviceName')}", file=sys.stderr)

    ref = mm.Context(system, integrator(), mm.Platform.getPlatformByName("Reference"))
    ref.setPositions(positions)
    want = forces(ref)
    err = float(((got - want) ** 2).sum() ** 0.5 / (want**2).sum() ** 0.5)

    ocl.setVelocitiesToTemperature(300 * unit.kelvin, 1)
    ocl.getIntegrator().step(20)  # warm-up
    ocl.getState(getEnergy=True)
    t0 = time.perf_counter()
    ocl.getIntegrator().step(STEPS)
    ocl.getState(getEnergy=True)  # waits for the steps
    seconds = time.perf_counter() - t0
    ns_per_day = STEPS * 0.002 / 1000 / (seconds / 86400)
    print(f"openmm {system.getNumParticles()} {ns_per_day:.3f} {err:.3e} {context_s:.2f}")
    if err > TOLERANCE:
        print(f"forces differ from the Reference platform: relative RMS error {err:.3e} > {TOLERANCE}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
