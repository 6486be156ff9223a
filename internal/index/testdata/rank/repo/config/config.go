package config

import (
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// Config is the service configuration.
type Config struct {
	Addr        string `yaml:"addr"`
	DatabaseURL string `yaml:"database_url"`
	LogLevel    string `yaml:"log_level"`
}

// Defaults returns the configuration used when a key is missing.
func Defaults() Config {
	return Config{Addr: ":8080", LogLevel: "info"}
}

// Load reads a YAML configuration file on top of the defaults and
// validates it.
func Load(path string) (Config, error) {
	cfg := Defaults()
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, err
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.DatabaseURL == "" {
		return cfg, fmt.Errorf("%s: database_url is required", path)
	}
	return cfg, nil
}
