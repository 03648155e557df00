package io.ragsearch.operator.playground;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Which API server the playground runs against: {@code --control-plane real|stand-in}. */
public enum ControlPlaneKind {
    /** etcd, kube-apiserver and kube-controller-manager built from Go modules; our node agent as the kubelet. */
    REAL("real", "a Kubernetes control plane built from Go modules, with our node agent as its kubelet"),
    /** fabric8's mock API server in this JVM, with the pod simulator standing in for the controllers. */
    STAND_IN("stand-in", "fabric8's mock API server in this JVM, with the pod simulator standing in for the controllers");

    private final String label;
    private final String meaning;

    ControlPlaneKind(String label, String meaning) {
        this.label = label;
        this.meaning = meaning;
    }

    /** As written on the command line. */
    public String label() {
        return label;
    }

    /** The option's value as a person writes it; anything else names both choices and what they mean. */
    public static ControlPlaneKind parse(String value) {
        return Arrays.stream(values()).filter(k -> k.label.equals(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + value + "' is not a control plane: use "
                        + Arrays.stream(values()).map(k -> k.label + " (" + k.meaning + ")").collect(Collectors.joining(" or "))));
    }

    @Override
    public String toString() {
        return label;
    }
}
