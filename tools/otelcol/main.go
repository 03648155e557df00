// A real OpenTelemetry Collector (the project's own receiver and exporter code, assembled the way
// the collector builder assembles a distribution) with exactly what the tests need: the OTLP
// receiver (gRPC and HTTP) and the file exporter, which writes what it received as OTLP JSON lines.
// Built and cached by scripts/otelcol-build.sh; run as `otelcol --config=<file>`.
package main

import (
	"log"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

func components() (otelcol.Factories, error) {
	return otelcol.Factories{
		Receivers: map[component.Type]receiver.Factory{otlpreceiver.NewFactory().Type(): otlpreceiver.NewFactory()},
		Exporters: map[component.Type]exporter.Factory{fileexporter.NewFactory().Type(): fileexporter.NewFactory()},
		Telemetry: otelconftelemetry.NewFactory(), // the collector's own logs (its metrics are switched off in the tests' config)
	}, nil
}

func main() {
	settings := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol", Description: "ragsearch test collector", Version: "test"},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory(), envprovider.NewFactory()},
				DefaultScheme:     "env", // ${NAME} in a configuration is a variable, as in the collector's own builds
			},
		},
	}
	if err := otelcol.NewCommand(settings).Execute(); err != nil {
		log.Fatal(err)
	}
}
