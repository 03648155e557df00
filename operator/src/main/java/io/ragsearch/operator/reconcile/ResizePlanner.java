package io.ragsearch.operator.reconcile;

import io.ragsearch.contract.calibration.LiveRerank;

/**
 * How a change of the pods' memory or CPU reaches them, free of I/O: resized in place (the pods
 * keep running, their rerank permits move) or by a rolling update.
 *
 * <p>The rule (docs/operator.md): only limits changed, the cluster resizes pods in place, the
 * Deployment's last rollout has finished (the running pods are its template's), and the running
 * pods can still run a rerank under the new memory limit → in place. Anything else rolls, and the
 * reason is told in an event: other changes (the roll carries the limits too), a cluster without
 * in-place resize (before Kubernetes 1.35, or a refused resize), a rollout under way (its new pods
 * may not even run: a refused resize's roll to a size no node holds), or a decrease under what the
 * running pods hold (their heap, sized for the old limit, does not shrink in place). Limits back
 * at the template's while its pods run at others (resized in place before) are in place too.
 *
 * <p>In place, the Deployment's pod template keeps the limits it was made with — changing it would
 * roll every pod — and the pods are resized through their {@code resize} subresource to the spec's.
 * The next roll for another reason writes the spec's limits into the template; a pod the template
 * makes meanwhile (a restart, a scale-up) is resized like the others once it runs.
 */
public final class ResizePlanner {

    private ResizePlanner() {
    }

    /** Memory in bytes; CPU in millicores, null for no limit. */
    public record Limits(long memoryBytes, Long cpuMillis) {
    }

    public enum Mode {
        /** The template has the spec's limits: nothing to decide. */
        UNCHANGED,
        /** The template keeps its limits; the pods are resized to the spec's. */
        IN_PLACE,
        /** The template takes the spec's limits: the Deployment rolls. */
        ROLL
    }

    public static final String REASON_IN_PLACE = "ResizedInPlace";
    public static final String REASON_OTHER_CHANGES = "RolledWithOtherChanges";
    public static final String REASON_UNSUPPORTED = "InPlaceResizeUnsupported";
    public static final String REASON_REFUSED = "InPlaceResizeRefused";
    public static final String REASON_BELOW_USE = "DecreaseBelowPodUse";
    public static final String REASON_ROLLOUT = "RolloutInProgress";

    /** Whether the cluster resizes pods in place, and what it is (for the event). */
    public record Support(boolean inPlace, String cluster) {
    }

    /**
     * @param spec            the spec's limits
     * @param template        the running Deployment template's, null before there is one
     * @param onlyLimitsDiffer the template rendered with its own limits is the running one (nothing else changed)
     * @param refused         why the cluster refused a resize to these limits, null if it did not
     * @param residentBytes   what the running pods hold at rest (their calibration), null if not measured
     * @param perRunBytes     one rerank's cost there, null if not measured
     * @param rolloutComplete  every serving pod is of the running template (no pod of an earlier one is left)
     * @param podsAtOtherLimits a pod of the running template asks for other limits than the spec's (an earlier in-place
     *                         resize), or an in-place resize to the spec's is not seen through yet
     */
    public record Inputs(Limits spec, Limits template, boolean onlyLimitsDiffer, Support support, String refused,
                         Long residentBytes, Long perRunBytes, int headroomPercent, boolean rolloutComplete,
                         boolean podsAtOtherLimits) {
    }

    public record Decision(Mode mode, String reason, String message) {
        public boolean inPlace() {
            return mode == Mode.IN_PLACE;
        }
    }

    public static Decision decide(Inputs in) {
        if (in.template() == null) {
            return new Decision(Mode.UNCHANGED, null, null);
        }
        if (in.template().equals(in.spec())) {
            return in.podsAtOtherLimits() ? new Decision(Mode.IN_PLACE, REASON_IN_PLACE, "limits back to the pod template's ("
                    + describe(in.spec()) + "): the pods resized in place earlier are resized to them in place")
                    : new Decision(Mode.UNCHANGED, null, null);
        }
        String change = describe(in.template()) + " → " + describe(in.spec());
        if (!in.onlyLimitsDiffer()) {
            return new Decision(Mode.ROLL, REASON_OTHER_CHANGES, "limits " + change + " roll with the other changes of the spec");
        }
        if (!in.support().inPlace()) {
            return new Decision(Mode.ROLL, REASON_UNSUPPORTED, "limits " + change + " by a rolling update: " + in.support().cluster()
                    + " does not resize pods in place (Kubernetes 1.35 or later does)");
        }
        if (in.refused() != null) {
            return new Decision(Mode.ROLL, REASON_REFUSED, "limits " + change + " by a rolling update: the cluster refused the "
                    + "in-place resize (" + in.refused() + ")");
        }
        if (!in.rolloutComplete()) {
            return new Decision(Mode.ROLL, REASON_ROLLOUT, "limits " + change + " by a rolling update: the Deployment's last "
                    + "rollout has not finished (pods of an earlier template still serve), so there are no running pods of its "
                    + "template to resize");
        }
        if (in.spec().memoryBytes() < in.template().memoryBytes() && in.residentBytes() != null && in.perRunBytes() != null) {
            long usable = in.spec().memoryBytes() * (100L - in.headroomPercent()) / 100L;
            if (usable < in.residentBytes() + in.perRunBytes()) {
                return new Decision(Mode.ROLL, REASON_BELOW_USE, "limits " + change + " by a rolling update: the running pods hold "
                        + mib(in.residentBytes()) + " and a rerank costs " + mib(in.perRunBytes()) + ", more than "
                        + (100 - in.headroomPercent()) + " % of " + mib(in.spec().memoryBytes()) + "; new pods start with a heap "
                        + "sized for it");
            }
        }
        return new Decision(Mode.IN_PLACE, REASON_IN_PLACE, "limits " + change + " resized in place on " + in.support().cluster()
                + ": the pods keep running and move their rerank permits");
    }

    /** One pod's next step towards the spec's limits. */
    public enum Step {
        /** The pod asks for the spec's limits already. */
        DONE,
        /** An increase (or CPU only): patch the resize subresource; the server follows its cgroup. */
        PATCH,
        /** A decrease: tell the server the limit first, so its permits move before the cgroup shrinks. */
        ANNOUNCE,
        /** Announced; reranks started under the old bound still run: look again shortly. */
        WAIT,
        /** Not ready or not measured: the server cannot compute a bound yet; look again later. */
        NOT_YET
    }

    /**
     * @param pod  the limits the pod's spec asks for now
     * @param live what the pod's server says it runs with, null if it did not answer (or does not re-tune)
     */
    public static Step podStep(Limits pod, Limits target, LiveRerank live, boolean ready) {
        if (pod.equals(target)) {
            return Step.DONE;
        }
        if (target.memoryBytes() >= pod.memoryBytes()) {
            return Step.PATCH;
        }
        if (!ready || live == null) {
            return Step.NOT_YET;
        }
        if (live.memoryLimitBytes() == null || live.memoryLimitBytes() > target.memoryBytes()) {
            return Step.ANNOUNCE;
        }
        return live.inForce() ? Step.PATCH : Step.WAIT;
    }

    private static String describe(Limits l) {
        return "memory " + mib(l.memoryBytes()) + (l.cpuMillis() == null ? "" : ", cpu " + l.cpuMillis() + "m");
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
